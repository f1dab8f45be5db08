import type {StructureResolver} from 'sanity/structure'
import {PricesView} from './components/prices-view'
import {SINGLETON_TYPES} from './schemas'

const singletonTitles: Record<(typeof SINGLETON_TYPES)[number], string> = {
  siteSettings: 'Site settings',
  homePage: 'Home page',
  servicesPage: 'Services page',
  aboutPage: 'About page',
  contactPage: 'Contact page',
  galleryPage: 'Gallery page',
}

const singletonTypes: readonly string[] = SINGLETON_TYPES

/** Singletons open straight into their one document; everything else is a list. */
export const structure: StructureResolver = (S) =>
  S.list()
    .title('Content')
    .items([
      ...SINGLETON_TYPES.map((type) =>
        S.listItem()
          .title(singletonTitles[type])
          .id(type)
          .child(S.document().schemaType(type).documentId(type).title(singletonTitles[type])),
      ),
      S.divider(),
      S.listItem().id('prices').title('Prices').child(S.component(PricesView).id('prices').title('Prices')),
      S.divider(),
      ...S.documentTypeListItems().filter((item) => !singletonTypes.includes(item.getId() ?? '')),
    ])
