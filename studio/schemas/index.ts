import {aboutPage} from './documents/about-page'
import {addOn} from './documents/add-on'
import {beforeAfter} from './documents/before-after'
import {contactPage} from './documents/contact-page'
import {faq} from './documents/faq'
import {galleryPage} from './documents/gallery-page'
import {homePage} from './documents/home-page'
import {legalPage} from './documents/legal-page'
import {quoteServiceOption} from './documents/quote-service-option'
import {servicePlan} from './documents/service-plan'
import {servicesPage} from './documents/services-page'
import {siteSettings} from './documents/site-settings'
import {accessibleImage} from './objects/accessible-image'
import {businessHours} from './objects/business-hours'
import {callToAction} from './objects/call-to-action'
import {highlight} from './objects/highlight'
import {pageSection} from './objects/page-section'
import {legalText, portableText} from './objects/portable-text'
import {price} from './objects/price'
import {seo} from './objects/seo'
import {siteSettingRef} from './objects/site-setting-ref'

/** Documents with a fixed id: exactly one of each exists, edited in place. */
export const SINGLETON_TYPES = ['siteSettings', 'homePage', 'servicesPage', 'aboutPage', 'contactPage', 'galleryPage'] as const

export const schemaTypes = [
  siteSettings,
  homePage,
  servicesPage,
  aboutPage,
  contactPage,
  galleryPage,
  servicePlan,
  beforeAfter,
  addOn,
  faq,
  legalPage,
  quoteServiceOption,
  seo,
  price,
  portableText,
  legalText,
  siteSettingRef,
  accessibleImage,
  businessHours,
  highlight,
  pageSection,
  callToAction,
]
