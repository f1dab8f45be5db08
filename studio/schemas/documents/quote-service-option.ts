import {defineField, defineType} from 'sanity'
import {SLUG_PATTERN, uniqueStringInType} from '../lib/validation'

export const quoteServiceOption = defineType({
  name: 'quoteServiceOption',
  title: 'Quote form service option',
  type: 'document',
  description: 'One choice in the quote form’s “Service” list.',
  fields: [
    defineField({
      name: 'label',
      title: 'Label',
      type: 'string',
      validation: (rule) => rule.required().max(80),
    }),
    defineField({
      name: 'value',
      title: 'Value',
      type: 'string',
      description: 'Stored with each quote request, e.g. weekly. Lower-case letters and hyphens.',
      validation: (rule) =>
        rule
          .required()
          .regex(SLUG_PATTERN, {name: 'lower-case words joined by hyphens'})
          .custom(uniqueStringInType('value')),
    }),
    defineField({
      name: 'plan',
      title: 'Plan used for the price estimate',
      type: 'reference',
      to: [{type: 'servicePlan'}],
      description: 'Leave empty when the price depends on a site visit (e.g. commercial).',
    }),
    defineField({
      name: 'order',
      title: 'Position',
      type: 'number',
      validation: (rule) => rule.required().integer().min(0),
    }),
  ],
  orderings: [{title: 'Position', name: 'position', by: [{field: 'order', direction: 'asc'}]}],
  preview: {select: {title: 'label', subtitle: 'value'}},
})
