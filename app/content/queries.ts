/**
 * Every GROQ query the app runs, as named constants. The same strings go to Sanity's Content Lake
 * (through @sanity/client) or to groq-js over the bundled dataset, so only features that both
 * support belong here. Each result is checked by the zod schema of the same name in types.ts.
 */

const SEO = `seo{title, description}`;
const IMAGE = `image{asset, alt, hotspot, crop}`;
const SECTION = `{heading, text}`;
const HIGHLIGHTS = `[]{_key, title, text}`;
const CTA = `{heading, text, buttonLabel}`;

export const SITE_SETTINGS_QUERY = /* groq */ `*[_id == "siteSettings"][0]{
  businessName, tagline, phone, email,
  hours{days, opens, closes, display},
  address{locality, region, postalCode, country},
  serviceAreas, servedZipCodes,
  promises${HIGHLIGHTS},
  trustBadges${HIGHLIGHTS},
  social{facebook, instagram, tiktok, youtube},
  bookingCalendarUrl,
  "bookingServiceTypes": bookingServiceTypes[]{eventType, serviceType},
  planRules{changeNoticeHours, longestPauseDays, horizonDays, firstVisitTime, "closedDays": closedDays[]{date, name}},
  billingRules{billingDay, prorateFirstMonth, creditSkippedVisits, graceDays, priceChangeNoticeDays, invoiceFooter},
  reviewRequests{reviewUrl, afterCompletedVisits},
  tips{amounts, payPeriodStart},
  "signUp": signUp{"areas": areas[]{name, zipCodes, serviceDays}, sameDayCutoff, dailyVisitCapacity,
    "initialCleans": initialCleans[]{answer, label, amount}},
  ${SEO}
}`;

/** What Today's route needs (admins only): its start, its timing, and each catalogue plan's minutes. */
export const ROUTE_SETTINGS_QUERY = /* groq */ `{
  "start": *[_id == "siteSettings"][0].routeStart{name, latitude, longitude},
  "timing": *[_id == "siteSettings"][0].routeSettings{circuityFactor, averageSpeedMph, defaultServiceMinutes, minutesPerExtraDog},
  "planMinutes": *[_type == "servicePlan" && defined(serviceMinutes)]{_id, serviceMinutes}
}`;

const PLAN_CARD = `_id, name, "slug": slug.current, kind, visitsPerWeek, price{amount, unit}, shortDescription, features,
  "popular": coalesce(popular, false), badge, order, ${IMAGE}`;

export const CATALOGUE_QUERY = /* groq */ `*[_type == "servicePlan" && showInCatalogue == true
  && defined(slug.current)] | order(order asc, name asc){${PLAN_CARD}}`;

export const PLAN_BY_SLUG_QUERY = /* groq */ `*[_type == "servicePlan" && slug.current == $slug][0]{
  ${PLAN_CARD}, detailHeadline, detailBody, ctaLabel, ${SEO}
}`;

export const ADD_ONS_QUERY = /* groq */ `*[_type == "addOn"] | order(order asc, name asc){
  _id, name, "slug": slug.current, description,
  "tiers": tiers[]{_key, minDogs, monthlyAmount} | order(minDogs asc)
}`;

export const FAQS_QUERY = /* groq */ `*[_type == "faq"] | order(order asc, question asc){_id, question, answer}`;

export const HOME_PAGE_QUERY = /* groq */ `*[_id == "homePage"][0]{
  hero{heading, subheading, primaryCtaLabel, secondaryCtaLabel, ${IMAGE}},
  trustSection${SECTION}, serviceAreaSection${SECTION}, hoursSection${SECTION}, servicesSection${SECTION},
  pricingLinkLabel,
  whyChoose{heading, items${HIGHLIGHTS}},
  promisesSection${SECTION},
  cta${CTA},
  ${SEO}
}`;

export const SERVICES_PAGE_QUERY = /* groq */ `*[_id == "servicesPage"][0]{
  hero${SECTION}, subscriptionsHeading, oneTimeHeading, learnMoreLabel,
  addOnsSection${SECTION}, cta${CTA}, ${SEO}
}`;

export const ABOUT_PAGE_QUERY = /* groq */ `*[_id == "aboutPage"][0]{
  hero${SECTION},
  whoWeAre{heading, body, ${IMAGE}},
  promise${SECTION},
  whyChoose{heading, items${HIGHLIGHTS}},
  serviceArea${SECTION}, guarantee${SECTION}, cta${CTA}, ${SEO}
}`;

export const CONTACT_PAGE_QUERY = /* groq */ `*[_id == "contactPage"][0]{
  hero${SECTION},
  quoteForm{heading, intro, submitLabel},
  callCard${SECTION}, emailCard${SECTION}, responseTimeNote,
  serviceAreaSection${SECTION}, hoursSection${SECTION}, faqSection${SECTION},
  whyChoose{heading, items${HIGHLIGHTS}},
  ${SEO}
}`;

export const LEGAL_PAGE_QUERY = /* groq */ `*[_type == "legalPage" && slug.current == $slug][0]{
  title, "slug": slug.current, lastUpdated, body, ${SEO}
}`;

export const QUOTE_SERVICE_OPTIONS_QUERY = /* groq */ `*[_type == "quoteServiceOption"] | order(order asc){
  _id, value, label,
  "plan": plan->{name, "slug": slug.current, kind, price{amount, unit}}
}`;

export const GALLERY_PAGE_QUERY = /* groq */ `*[_id == "galleryPage"][0]{
  hero${SECTION}, homeSection${SECTION}, viewAllLabel, emptyText, ${SEO}
}`;

// Consent is checked here too, not only in the studio: a pair without it is never served.
export const BEFORE_AFTER_QUERY = /* groq */ `*[_type == "beforeAfter" && customerConsent == true
  && defined(before.asset) && defined(after.asset)] | order(order asc, _id asc){
  _id, caption, neighbourhood,
  "service": service->{name, "slug": slug.current},
  before{asset, alt, hotspot, crop}, after{asset, alt, hotspot, crop}
}`;

export const SITEMAP_QUERY = /* groq */ `{
  "pages": *[_id in ["homePage", "servicesPage", "aboutPage", "contactPage", "galleryPage"]]{_id, _updatedAt},
  "plans": *[_type == "servicePlan" && defined(slug.current)] | order(order asc){"slug": slug.current, _updatedAt},
  "legalPages": *[_type == "legalPage" && defined(slug.current)] | order(slug.current asc){"slug": slug.current, _updatedAt}
}`;
