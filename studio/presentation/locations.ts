import {defineLocations, type PresentationPluginOptions} from 'sanity/presentation'

/** Where each document shows on the site, so the Presentation tool can open the right page. */
const page = (title: string, href: string) => defineLocations({locations: [{title, href}]})

export const resolve: PresentationPluginOptions['resolve'] = {
  locations: {
    siteSettings: page('Every page (header and footer)', '/'),
    homePage: page('Home', '/'),
    servicesPage: page('Services', '/services'),
    aboutPage: page('About', '/about'),
    contactPage: page('Contact', '/contact'),
    galleryPage: page('Before & After', '/gallery'),
    beforeAfter: defineLocations({
      select: {caption: 'caption'},
      resolve: (doc) => ({
        locations: [
          {title: doc?.caption || 'Before & After', href: '/gallery'},
          {title: 'Home', href: '/'},
        ],
      }),
    }),
    servicePlan: defineLocations({
      select: {name: 'name', slug: 'slug.current'},
      resolve: (doc) => ({
        locations: doc?.slug
          ? [
              {title: doc.name || doc.slug, href: `/services/${doc.slug}`},
              {title: 'Services', href: '/services'},
            ]
          : [],
      }),
    }),
    legalPage: defineLocations({
      select: {title: 'title', slug: 'slug.current'},
      resolve: (doc) => ({locations: doc?.slug ? [{title: doc.title || doc.slug, href: `/${doc.slug}`}] : []}),
    }),
    faq: page('Contact (FAQ)', '/contact'),
    addOn: page('Services', '/services'),
  },
}
