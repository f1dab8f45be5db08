/**
 * Writes studio/data/production.tar.gz, the bundled dataset, in the format of
 * `sanity dataset export` / `sanity dataset import`: one folder holding `data.ndjson`, `assets.json`
 * and `images/`, whose documents point at their pictures with `_sanityAsset` placeholders.
 * The pictures are drawn here (dataset/pictures.ts). Run: npx tsx studio/scripts/build-dataset.ts
 *
 * This is an authoring aid for the first version of the content. Once the owner edits content in
 * a Sanity project, `sanity dataset export` output replaces the file and this script is retired.
 */
import {createHash} from 'node:crypto'
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import sharp from 'sharp'
import {create as createTar} from 'tar'
import {business} from './dataset/business'
import {galleryPage, pairs} from './dataset/gallery'
import {legalPages} from './dataset/legal'
import {
  aboutPage,
  contactPage,
  faqs,
  homePage,
  multiDogAddOn,
  promises,
  servicesPage,
  siteSeo,
  trustBadges,
} from './dataset/pages'
import {heroScene, truckScene, yardScene} from './dataset/pictures'
import {plans, quoteOptions} from './dataset/plans'
import {keyFor, portableText} from './dataset/portable-text'

type Doc = {_id: string; _type: string; [field: string]: unknown}

const TIMESTAMP = `${business.legalUpdated}T16:00:00Z`

/** Adds a stable `_key` to every object in an array, as the Studio would. */
function keyed<T extends object>(items: T[], seed: string, type?: string): (T & {_key: string})[] {
  return items.map((item, index) => ({
    ...(type ? {_type: type} : {}),
    ...item,
    _key: keyFor(seed, index),
  }))
}

const section = (value: {heading: string; text?: string}) => ({_type: 'pageSection', ...value})
const seo = (title: string, description: string) => ({_type: 'seo', title, description})
const whyChoose = (value: {heading: string; items: {title: string; text: string}[]}, seed: string) => ({
  heading: value.heading,
  items: keyed(value.items, seed, 'highlight'),
})

/** The folder name inside the archive, as `sanity dataset export` names it (dataset + "-export"). */
const EXPORT_FOLDER = 'production-export'

type Picture = {fileName: string; bytes: Buffer; originalFilename: string}
const pictures: Picture[] = []

/**
 * Renders an SVG to a palette PNG and returns the image field as an export writes it: the asset
 * reference replaced by `_sanityAsset: "image@file://./images/<sha1>-<w>x<h>.png"`.
 */
async function picture(
  name: string,
  svg: string,
  alt: string,
  hotspot?: {x: number; y: number; width: number; height: number},
) {
  const bytes = await sharp(Buffer.from(svg)).png({palette: true, quality: 90, compressionLevel: 9, effort: 10}).toBuffer()
  const {width, height} = await sharp(bytes).metadata()
  const sha1 = createHash('sha1').update(bytes).digest('hex')
  const fileName = `${sha1}-${width}x${height}.png`
  pictures.push({fileName, bytes, originalFilename: `${name}.png`})
  return {
    _type: 'accessibleImage',
    _sanityAsset: `image@file://./images/${fileName}`,
    alt,
    ...(hotspot
      ? {
          hotspot: {_type: 'sanity.imageHotspot', ...hotspot},
          crop: {_type: 'sanity.imageCrop', top: 0, bottom: 0, left: 0, right: 0},
        }
      : {}),
  }
}

const docs: Doc[] = []

docs.push({
  _id: 'siteSettings',
  _type: 'siteSettings',
  businessName: business.name,
  tagline: business.tagline,
  phone: business.phone,
  email: business.email,
  hours: {_type: 'businessHours', ...business.hours},
  address: business.address,
  serviceAreas: business.serviceAreas,
  servedZipCodes: business.servedZipCodes,
  promises: keyed(promises, 'promises', 'highlight'),
  trustBadges: keyed(trustBadges, 'trustBadges', 'highlight'),
  social: business.social,
  bookingCalendarUrl: business.bookingCalendarUrl,
  // Calendar event types → visit types (README "Connect your calendar"); unmapped ones are "Other".
  bookingServiceTypes: [
    {_key: 'evt0a', _type: 'bookingServiceType', eventType: 'weekly-cleanup', serviceType: 'Weekly Service'},
    {_key: 'evt1b', _type: 'bookingServiceType', eventType: 'twice-weekly-cleanup', serviceType: 'Twice Weekly Service'},
    {_key: 'evt2c', _type: 'bookingServiceType', eventType: 'yard-refresh', serviceType: 'Yard Refresh'},
    {_key: 'evt3d', _type: 'bookingServiceType', eventType: 'sanitize-deodorize', serviceType: 'Sanitize & Deodorize'},
    {_key: 'evt4e', _type: 'bookingServiceType', eventType: 'trash-bin-clean', serviceType: 'Trash Bin Clean'},
  ],
  planRules: {
    ...business.planRules,
    closedDays: keyed(business.planRules.closedDays, 'planRules.closedDays', 'closedDay'),
  },
  billingRules: business.billingRules,
  reviewRequests: business.reviewRequests,
  tips: business.tips,
  signUp: {
    _type: 'signUp',
    ...business.signUp,
    areas: keyed(business.signUp.areas, 'signUp.areas', 'signUpArea'),
    initialCleans: keyed(business.signUp.initialCleans, 'signUp.initialCleans', 'initialClean'),
  },
  routeStart: {_type: 'routeStart', ...business.routeStart},
  routeSettings: {_type: 'routeSettings', ...business.routeSettings},
  seo: seo(siteSeo.title, siteSeo.description),
})

docs.push({
  _id: 'homePage',
  _type: 'homePage',
  hero: {
    ...homePage.hero,
    image: await picture(
      'home-hero',
      heroScene(1600, 1200),
      'A clean, striped lawn behind a wooden fence, with a dog, a bucket and a scooper.',
      {x: 0.55, y: 0.62, width: 0.7, height: 0.6},
    ),
  },
  trustSection: section(homePage.trustSection),
  serviceAreaSection: section(homePage.serviceAreaSection),
  hoursSection: section(homePage.hoursSection),
  servicesSection: section(homePage.servicesSection),
  pricingLinkLabel: homePage.pricingLinkLabel,
  whyChoose: whyChoose(homePage.whyChoose, 'home.whyChoose'),
  promisesSection: section(homePage.promisesSection),
  cta: {_type: 'callToAction', ...homePage.cta},
  seo: seo(homePage.seo.title, homePage.seo.description),
})

docs.push({
  _id: 'servicesPage',
  _type: 'servicesPage',
  hero: section(servicesPage.hero),
  subscriptionsHeading: servicesPage.subscriptionsHeading,
  oneTimeHeading: servicesPage.oneTimeHeading,
  learnMoreLabel: servicesPage.learnMoreLabel,
  addOnsSection: section(servicesPage.addOnsSection),
  cta: {_type: 'callToAction', ...servicesPage.cta},
  seo: seo(servicesPage.seo.title, servicesPage.seo.description),
})

docs.push({
  _id: 'aboutPage',
  _type: 'aboutPage',
  hero: section(aboutPage.hero),
  whoWeAre: {
    heading: aboutPage.whoWeAre.heading,
    body: portableText(aboutPage.whoWeAre.body, 'about.whoWeAre'),
    image: await picture(
      'about-truck',
      truckScene(1200, 900),
      'The white and blue service truck parked on a road in front of desert mountains.',
    ),
  },
  promise: section(aboutPage.promise),
  whyChoose: whyChoose(aboutPage.whyChoose, 'about.whyChoose'),
  serviceArea: section(aboutPage.serviceArea),
  guarantee: section(aboutPage.guarantee),
  cta: {_type: 'callToAction', ...aboutPage.cta},
  seo: seo(aboutPage.seo.title, aboutPage.seo.description),
})

docs.push({
  _id: 'contactPage',
  _type: 'contactPage',
  hero: section(contactPage.hero),
  quoteForm: contactPage.quoteForm,
  callCard: section(contactPage.callCard),
  emailCard: section(contactPage.emailCard),
  responseTimeNote: contactPage.responseTimeNote,
  serviceAreaSection: section(contactPage.serviceAreaSection),
  hoursSection: section(contactPage.hoursSection),
  faqSection: section(contactPage.faqSection),
  whyChoose: whyChoose(contactPage.whyChoose, 'contact.whyChoose'),
  seo: seo(contactPage.seo.title, contactPage.seo.description),
})

for (const plan of plans) {
  docs.push({
    _id: `servicePlan.${plan.slug}`,
    _type: 'servicePlan',
    name: plan.name,
    slug: {_type: 'slug', current: plan.slug},
    kind: plan.kind,
    ...(plan.visitsPerWeek ? {visitsPerWeek: plan.visitsPerWeek} : {}),
    serviceMinutes: plan.serviceMinutes,
    price: {_type: 'price', amount: plan.amount, unit: plan.unit},
    shortDescription: plan.shortDescription,
    features: plan.features,
    popular: Boolean(plan.popular),
    ...(plan.popular ? {badge: plan.popular.badge} : {}),
    order: plan.order,
    showInCatalogue: true,
    detailHeadline: plan.detailHeadline,
    detailBody: portableText(plan.body, `plan.${plan.slug}`),
    ctaLabel: plan.ctaLabel,
    seo: seo(plan.seoTitle, plan.seoDescription),
  })
}

docs.push({
  _id: `addOn.${multiDogAddOn.slug}`,
  _type: 'addOn',
  name: multiDogAddOn.name,
  slug: {_type: 'slug', current: multiDogAddOn.slug},
  description: multiDogAddOn.description,
  tiers: keyed(multiDogAddOn.tiers, 'addOn.tiers', 'dogTier'),
  order: 10,
})

faqs.forEach((entry, index) => {
  docs.push({_id: `faq.${String(index + 1).padStart(2, '0')}`, _type: 'faq', ...entry, order: (index + 1) * 10})
})

for (const page of legalPages) {
  docs.push({
    _id: `legalPage.${page.slug}`,
    _type: 'legalPage',
    title: page.title,
    slug: {_type: 'slug', current: page.slug},
    lastUpdated: business.legalUpdated,
    body: portableText(page.body, `legal.${page.slug}`),
    seo: seo(page.seoTitle, page.seoDescription),
  })
}

quoteOptions.forEach((option, index) => {
  docs.push({
    _id: `quoteServiceOption.${option.value}`,
    _type: 'quoteServiceOption',
    label: option.label,
    value: option.value,
    ...(option.plan ? {plan: {_type: 'reference', _ref: `servicePlan.${option.plan}`}} : {}),
    order: (index + 1) * 10,
  })
})

docs.push({
  _id: 'galleryPage',
  _type: 'galleryPage',
  hero: section(galleryPage.hero),
  homeSection: section(galleryPage.homeSection),
  viewAllLabel: galleryPage.viewAllLabel,
  emptyText: galleryPage.emptyText,
  seo: seo(galleryPage.seo.title, galleryPage.seo.description),
})

for (const [index, pair] of pairs.entries()) {
  docs.push({
    _id: `beforeAfter.${pair.id}`,
    _type: 'beforeAfter',
    before: await picture(`${pair.id}-before`, yardScene(pair.scene, false, 1200, 900, pair.seed), pair.beforeAlt),
    after: await picture(`${pair.id}-after`, yardScene(pair.scene, true, 1200, 900, pair.seed), pair.afterAlt),
    caption: pair.caption,
    service: {_type: 'reference', _ref: `servicePlan.${pair.plan}`},
    neighbourhood: pair.neighbourhood,
    customerConsent: true,
    order: (index + 1) * 10,
  })
}

const lines = docs.map((doc) =>
  JSON.stringify({
    _createdAt: TIMESTAMP,
    _rev: createHash('sha1').update(JSON.stringify(doc)).digest('base64url').slice(0, 22),
    _updatedAt: TIMESTAMP,
    ...doc,
  }),
)

const target = fileURLToPath(new URL('../data/production.tar.gz', import.meta.url))
const work = await mkdtemp(path.join(tmpdir(), 'dataset-'))
try {
  const folder = path.join(work, EXPORT_FOLDER)
  await mkdir(path.join(folder, 'images'), {recursive: true})
  await writeFile(path.join(folder, 'data.ndjson'), `${lines.join('\n')}\n`)
  // assets.json: what `sanity dataset import` puts on each uploaded asset document.
  const assets = Object.fromEntries(
    pictures.map((item) => [`image-${item.fileName.split('-')[0]}`, {originalFilename: item.originalFilename}]),
  )
  await writeFile(path.join(folder, 'assets.json'), `${JSON.stringify(assets, null, 2)}\n`)
  for (const item of pictures) await writeFile(path.join(folder, 'images', item.fileName), item.bytes)
  const entries = [
    `${EXPORT_FOLDER}/data.ndjson`,
    `${EXPORT_FOLDER}/assets.json`,
    ...pictures.map((item) => `${EXPORT_FOLDER}/images/${item.fileName}`).sort(),
  ]
  // portable + a fixed mtime: the same content gives the same bytes, so the file diffs cleanly.
  await createTar({gzip: {level: 9}, file: target, cwd: work, portable: true, mtime: new Date(TIMESTAMP)}, entries)
} finally {
  await rm(work, {recursive: true, force: true})
}
console.log(`Wrote ${docs.length} documents and ${pictures.length} images to ${target}`)
