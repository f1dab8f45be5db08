import {defineField, defineType} from 'sanity'

/** The site has one route per legal page; a page with another slug would have no URL. */
export const LEGAL_PAGE_SLUGS = ['terms-of-service', 'privacy-policy', 'disclaimer', 'accessibility']

export const legalPage = defineType({
  name: 'legalPage',
  title: 'Legal page',
  type: 'document',
  fields: [
    defineField({name: 'title', title: 'Title', type: 'string', validation: (rule) => rule.required().max(80)}),
    defineField({
      name: 'slug',
      title: 'URL slug',
      type: 'slug',
      description: `The page lives at /<slug>. One of: ${LEGAL_PAGE_SLUGS.join(', ')}.`,
      options: {source: 'title', maxLength: 60},
      validation: (rule) =>
        rule.required().custom((slug) => {
          if (!slug?.current) return true
          return LEGAL_PAGE_SLUGS.includes(slug.current)
            ? true
            : `The site only has pages for: ${LEGAL_PAGE_SLUGS.join(', ')}`
        }),
    }),
    defineField({
      name: 'lastUpdated',
      title: 'Last updated',
      type: 'date',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'body',
      title: 'Body',
      description: 'Insert the phone, e-mail and other business facts with "Site setting", never as typed text.',
      type: 'legalText',
      validation: (rule) => rule.required().min(1),
    }),
    defineField({name: 'seo', title: 'Search engine listing', type: 'seo', validation: (rule) => rule.required()}),
  ],
  preview: {select: {title: 'title', subtitle: 'slug.current'}},
})
