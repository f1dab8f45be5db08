import {defineField, defineType} from 'sanity'

/**
 * One "Before & After" pair for the public gallery. A customer's yard is private: a pair may be
 * published only when the customer agreed, and the studio refuses to publish it otherwise.
 */
export const beforeAfter = defineType({
  name: 'beforeAfter',
  title: 'Before & After',
  type: 'document',
  fields: [
    defineField({
      name: 'before',
      title: 'Before',
      type: 'accessibleImage',
      description: 'The yard before the visit.',
      validation: (rule) => rule.required().error('Add the "before" picture.'),
    }),
    defineField({
      name: 'after',
      title: 'After',
      type: 'accessibleImage',
      description: 'The same yard, from the same spot, after the visit.',
      validation: (rule) => rule.required().error('Add the "after" picture.'),
    }),
    defineField({
      name: 'caption',
      title: 'Caption',
      type: 'string',
      description: 'One sentence shown under the pictures, e.g. what was done and how long it took.',
      validation: (rule) => [
        rule.required().error('Write a short caption for the pair.'),
        rule.max(160).error('Keep the caption under 160 characters.'),
      ],
    }),
    defineField({
      name: 'service',
      title: 'Service',
      type: 'reference',
      to: [{type: 'servicePlan'}],
      description: 'The plan this visit was part of.',
      validation: (rule) => rule.required().error('Choose the service that was done.'),
    }),
    defineField({
      name: 'neighbourhood',
      title: 'Neighbourhood',
      type: 'string',
      description: 'A town or neighbourhood only, never a street address.',
      validation: (rule) => [
        rule.required().error('Name the neighbourhood (a town is enough).'),
        rule.max(60).error('Keep the neighbourhood under 60 characters.'),
        rule
          .regex(/^[^0-9]*$/)
          .error('Leave out house numbers: a neighbourhood or town is enough to protect the customer.'),
      ],
    }),
    defineField({
      name: 'customerConsent',
      title: 'Customer agreed to publish',
      type: 'boolean',
      description: 'Tick only when the customer said yes to showing these pictures on the website.',
      initialValue: false,
      validation: (rule) =>
        rule.custom((agreed) =>
          agreed === true ? true : 'The customer must agree before these pictures can be published.',
        ),
    }),
    defineField({
      name: 'order',
      title: 'Position in the gallery',
      type: 'number',
      description: 'Lower numbers come first; the first three also show on the home page.',
      validation: (rule) => rule.required().integer().min(0).error('Give a whole number, 0 or more.'),
    }),
  ],
  orderings: [{title: 'Gallery order', name: 'gallery', by: [{field: 'order', direction: 'asc'}]}],
  preview: {
    select: {title: 'caption', place: 'neighbourhood', service: 'service.name', media: 'after'},
    prepare: ({title, place, service, media}) => ({
      title,
      subtitle: [service, place].filter(Boolean).join(' · '),
      media,
    }),
  },
})
