import {defineField, defineType} from 'sanity'

export const servicesPage = defineType({
  name: 'servicesPage',
  title: 'Services page',
  type: 'document',
  description: 'The copy around the catalogue on /services. The plans are their own documents.',
  fields: [
    defineField({name: 'hero', title: 'Heading', type: 'pageSection', validation: (rule) => rule.required()}),
    defineField({
      name: 'subscriptionsHeading',
      title: 'Subscriptions heading',
      type: 'string',
      validation: (rule) => rule.required().max(80),
    }),
    defineField({
      name: 'oneTimeHeading',
      title: 'One-time services heading',
      type: 'string',
      validation: (rule) => rule.required().max(80),
    }),
    defineField({
      name: 'learnMoreLabel',
      title: 'Card link label',
      type: 'string',
      initialValue: 'Learn More',
      validation: (rule) => rule.required().max(30),
    }),
    defineField({
      name: 'addOnsSection',
      title: 'Add-ons section',
      type: 'pageSection',
      description: 'The add-ons themselves are their own documents.',
      validation: (rule) => rule.required(),
    }),
    defineField({name: 'cta', title: 'Closing call to action', type: 'callToAction', validation: (rule) => rule.required()}),
    defineField({name: 'seo', title: 'Search engine listing', type: 'seo', validation: (rule) => rule.required()}),
  ],
  preview: {prepare: () => ({title: 'Services page'})},
})
