import {defineField, defineType} from 'sanity'
import {whyChooseField} from '../lib/why-choose-field'

export const homePage = defineType({
  name: 'homePage',
  title: 'Home page',
  type: 'document',
  fields: [
    defineField({
      name: 'hero',
      title: 'Hero',
      type: 'object',
      validation: (rule) => rule.required(),
      fields: [
        defineField({name: 'heading', title: 'Heading', type: 'string', validation: (rule) => rule.required().max(90)}),
        defineField({
          name: 'subheading',
          title: 'Subheading',
          type: 'text',
          rows: 2,
          validation: (rule) => rule.required().max(300),
        }),
        defineField({
          name: 'primaryCtaLabel',
          title: 'Services button label',
          type: 'string',
          initialValue: 'View Services',
          validation: (rule) => rule.required().max(30),
        }),
        defineField({
          name: 'secondaryCtaLabel',
          title: 'Contact button label',
          type: 'string',
          initialValue: 'Contact Us',
          validation: (rule) => rule.required().max(30),
        }),
        defineField({name: 'image', title: 'Image', type: 'accessibleImage'}),
      ],
    }),
    defineField({
      name: 'trustSection',
      title: 'Trust badges section',
      type: 'pageSection',
      description: 'The badges themselves are in Site settings.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'serviceAreaSection',
      title: 'Service area section',
      type: 'pageSection',
      description: 'The areas themselves are in Site settings.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'hoursSection',
      title: 'Hours section',
      type: 'pageSection',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'servicesSection',
      title: 'Featured services section',
      type: 'pageSection',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'pricingLinkLabel',
      title: 'Pricing link label',
      type: 'string',
      description: 'The link to the full price list on /services.',
      validation: (rule) => rule.required().max(60),
    }),
    whyChooseField({maxItems: 8}),
    defineField({
      name: 'promisesSection',
      title: 'Promises section',
      type: 'pageSection',
      description: 'The promises themselves are in Site settings.',
      validation: (rule) => rule.required(),
    }),
    defineField({name: 'cta', title: 'Closing call to action', type: 'callToAction', validation: (rule) => rule.required()}),
    defineField({name: 'seo', title: 'Search engine listing', type: 'seo', validation: (rule) => rule.required()}),
  ],
  preview: {select: {media: 'hero.image'}, prepare: ({media}) => ({title: 'Home page', media})},
})
