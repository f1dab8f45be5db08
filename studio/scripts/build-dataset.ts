/**
 * Writes studio/data/production.ndjson, the bundled dataset, in the format of
 * `sanity dataset export` / `sanity dataset import`. Run: npx tsx studio/scripts/build-dataset.ts
 *
 * This is an authoring aid for the first version of the content. Once the owner edits content in
 * a Sanity project, `sanity dataset export` output replaces the file and this script is retired.
 */
import {createHash} from 'node:crypto'
import {writeFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {business} from './dataset/business'
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
  seo: seo(siteSeo.title, siteSeo.description),
})

docs.push({
  _id: 'homePage',
  _type: 'homePage',
  hero: homePage.hero,
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
  whoWeAre: {heading: aboutPage.whoWeAre.heading, body: portableText(aboutPage.whoWeAre.body, 'about.whoWeAre')},
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

const lines = docs.map((doc) =>
  JSON.stringify({
    _createdAt: TIMESTAMP,
    _rev: createHash('sha1').update(JSON.stringify(doc)).digest('base64url').slice(0, 22),
    _updatedAt: TIMESTAMP,
    ...doc,
  }),
)

const target = fileURLToPath(new URL('../data/production.ndjson', import.meta.url))
writeFileSync(target, `${lines.join('\n')}\n`)
console.log(`Wrote ${docs.length} documents to ${target}`)
