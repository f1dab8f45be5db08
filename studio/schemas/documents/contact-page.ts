import {defineField, defineType} from 'sanity'
import {whyChooseField} from '../lib/why-choose-field'

export const contactPage = defineType({
  name: 'contactPage',
  title: 'Contact page',
  type: 'document',
  fields: [
    defineField({name: 'hero', title: 'Heading', type: 'pageSection', validation: (rule) => rule.required()}),
    defineField({
      name: 'quoteForm',
      title: 'Quote form',
      type: 'object',
      validation: (rule) => rule.required(),
      fields: [
        defineField({name: 'heading', title: 'Heading', type: 'string', validation: (rule) => rule.required()}),
        defineField({name: 'intro', title: 'Intro', type: 'text', rows: 2, validation: (rule) => rule.max(400)}),
        defineField({
          name: 'submitLabel',
          title: 'Submit button label',
          type: 'string',
          initialValue: 'Get My Free Quote',
          validation: (rule) => rule.required().max(40),
        }),
      ],
    }),
    defineField({
      name: 'callCard',
      title: 'Call card',
      type: 'pageSection',
      description: 'The phone number comes from Site settings.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'emailCard',
      title: 'E-mail card',
      type: 'pageSection',
      description: 'The address comes from Site settings.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'responseTimeNote',
      title: 'Response time note',
      type: 'string',
      validation: (rule) => rule.required().max(200),
    }),
    defineField({name: 'serviceAreaSection', title: 'Service area section', type: 'pageSection', validation: (rule) => rule.required()}),
    defineField({name: 'hoursSection', title: 'Hours section', type: 'pageSection', validation: (rule) => rule.required()}),
    defineField({
      name: 'faqSection',
      title: 'FAQ section',
      type: 'pageSection',
      description: 'The questions are their own documents.',
      validation: (rule) => rule.required(),
    }),
    whyChooseField({maxItems: 10}),
    defineField({name: 'seo', title: 'Search engine listing', type: 'seo', validation: (rule) => rule.required()}),
  ],
  preview: {prepare: () => ({title: 'Contact page'})},
})
