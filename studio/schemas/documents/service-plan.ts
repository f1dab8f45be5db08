import {defineArrayMember, defineField, defineType} from 'sanity'
import {SLUG_PATTERN} from '../lib/validation'

export const servicePlan = defineType({
  name: 'servicePlan',
  title: 'Service plan',
  type: 'document',
  groups: [
    {name: 'card', title: 'Catalogue card', default: true},
    {name: 'detail', title: 'Detail page'},
    {name: 'seo', title: 'Search engines'},
  ],
  fields: [
    defineField({
      name: 'name',
      title: 'Name',
      type: 'string',
      group: 'card',
      validation: (rule) => [
        rule.required().error('Give the plan a name.'),
        rule.max(60).error('Keep the name under 60 characters.'),
      ],
    }),
    defineField({
      name: 'slug',
      title: 'URL slug',
      type: 'slug',
      group: 'card',
      description: 'The page lives at /services/<slug>. Changing it breaks existing links.',
      options: {source: 'name', maxLength: 60},
      validation: (rule) =>
        rule.required().error('Click "Generate" to make the page address from the name.').custom((slug) => {
          if (!slug?.current) return true
          return SLUG_PATTERN.test(slug.current) ? true : 'Use lower-case letters, digits and single hyphens'
        }),
    }),
    defineField({
      name: 'kind',
      title: 'Kind',
      type: 'string',
      group: 'card',
      options: {
        list: [
          {title: 'Subscription (recurring)', value: 'subscription'},
          {title: 'One-time visit', value: 'one-time'},
        ],
        layout: 'radio',
      },
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'visitsPerWeek',
      title: 'Visits per week',
      type: 'number',
      group: 'card',
      description:
        'How many visits a week a customer on this plan gets (weekly 1, twice-weekly 2, thrice-weekly 3). Only subscriptions have it; a plan without it is a one-time visit and cannot be a customer’s plan.',
      options: {list: [1, 2, 3, 4, 5], layout: 'radio', direction: 'horizontal'},
      hidden: ({document}) => (document as {kind?: string} | undefined)?.kind !== 'subscription',
      validation: (rule) =>
        rule.custom((value: number | undefined, context) => {
          const kind = (context.document as {kind?: string} | undefined)?.kind
          if (kind !== 'subscription') return true
          if (value === undefined) return 'A subscription needs its visits per week'
          return Number.isInteger(value) && value >= 1 && value <= 5 ? true : 'Between 1 and 5 visits a week'
        }),
    }),
    defineField({
      name: 'serviceMinutes',
      title: 'Minutes at each visit',
      type: 'number',
      group: 'card',
      description:
        'How long a technician spends at one visit of this plan with one dog (Site settings > Route adds minutes per extra dog). Today’s estimated arrival times add these up; customers never see it.',
      initialValue: 15,
      validation: (rule) => rule.required().integer().min(1).max(480),
    }),
    defineField({
      name: 'price',
      title: 'Price',
      type: 'price',
      group: 'card',
      description: 'The only price of this plan: the catalogue, this plan’s page and search engines all show it.',
      validation: (rule) =>
        rule.required().custom((price: {unit?: string} | undefined, context) => {
          const kind = (context.document as {kind?: string} | undefined)?.kind
          const unit = price?.unit
          if (!unit || !kind) return true
          if (kind === 'subscription' && unit !== 'month') return 'A subscription is priced per month'
          if (kind === 'one-time' && unit === 'month') return 'A one-time visit cannot be priced per month'
          return true
        }),
    }),
    defineField({
      name: 'shortDescription',
      title: 'Short description',
      type: 'text',
      rows: 3,
      group: 'card',
      validation: (rule) => rule.required().min(20).max(240),
    }),
    defineField({
      name: 'features',
      title: 'What’s included',
      type: 'array',
      group: 'card',
      of: [defineArrayMember({type: 'string', validation: (rule) => rule.required().max(120)})],
      validation: (rule) => rule.required().min(1).max(12),
    }),
    defineField({
      name: 'popular',
      title: 'Highlight as popular',
      type: 'boolean',
      group: 'card',
      initialValue: false,
    }),
    defineField({
      name: 'badge',
      title: 'Badge text',
      type: 'string',
      group: 'card',
      description: 'Shown on highlighted plans, e.g. "Most Popular".',
      hidden: ({document}) => !document?.popular,
      validation: (rule) =>
        rule.max(30).custom((badge, context) => {
          const popular = (context.document as {popular?: boolean} | undefined)?.popular
          return popular && !badge?.trim() ? 'A highlighted plan needs badge text' : true
        }),
    }),
    defineField({
      name: 'order',
      title: 'Position in the catalogue',
      type: 'number',
      group: 'card',
      description: 'Lower numbers come first.',
      validation: (rule) => rule.required().integer().min(0),
    }),
    defineField({
      name: 'showInCatalogue',
      title: 'Show in the catalogue',
      type: 'boolean',
      group: 'card',
      description: 'Hidden plans keep their page but are not listed on /services.',
      initialValue: true,
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'image',
      title: 'Image',
      type: 'accessibleImage',
      group: 'card',
    }),
    defineField({
      name: 'detailHeadline',
      title: 'Page headline',
      type: 'string',
      group: 'detail',
      validation: (rule) => rule.required().max(120),
    }),
    defineField({
      name: 'detailBody',
      title: 'Page body',
      type: 'portableText',
      group: 'detail',
      validation: (rule) => rule.required().min(1),
    }),
    defineField({
      name: 'ctaLabel',
      title: 'Booking button label',
      type: 'string',
      group: 'detail',
      initialValue: 'Book Now',
      validation: (rule) => rule.required().max(30),
    }),
    defineField({
      name: 'seo',
      title: 'Search engine listing',
      type: 'seo',
      group: 'seo',
      validation: (rule) => rule.required(),
    }),
  ],
  orderings: [{title: 'Catalogue order', name: 'catalogue', by: [{field: 'order', direction: 'asc'}]}],
  preview: {
    select: {title: 'name', amount: 'price.amount', unit: 'price.unit', shown: 'showInCatalogue', media: 'image'},
    prepare: ({title, amount, unit, shown, media}) => ({
      title,
      subtitle: `$${amount ?? '?'} ${unit ?? ''}${shown === false ? ' · hidden' : ''}`,
      media,
    }),
  },
})
