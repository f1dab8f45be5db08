import {defineArrayMember, defineField, defineType} from 'sanity'

export const addOn = defineType({
  name: 'addOn',
  title: 'Add-on',
  type: 'document',
  description: 'A monthly surcharge on subscription plans, e.g. for more than one dog.',
  fields: [
    defineField({name: 'name', title: 'Name', type: 'string', validation: (rule) => rule.required().max(60)}),
    defineField({
      name: 'slug',
      title: 'Identifier',
      type: 'slug',
      options: {source: 'name', maxLength: 40},
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'text',
      rows: 2,
      validation: (rule) => rule.required().max(300),
    }),
    defineField({
      name: 'tiers',
      title: 'Tiers',
      type: 'array',
      description: 'The tier with the highest dog count at or below the customer’s dogs applies.',
      of: [
        defineArrayMember({
          name: 'dogTier',
          title: 'Tier',
          type: 'object',
          fields: [
            defineField({
              name: 'minDogs',
              title: 'From this many dogs',
              type: 'number',
              validation: (rule) => rule.required().integer().min(2).max(20),
            }),
            defineField({
              name: 'monthlyAmount',
              title: 'Extra per month (US dollars)',
              type: 'number',
              validation: (rule) => rule.required().greaterThan(0).precision(2),
            }),
          ],
          preview: {
            select: {minDogs: 'minDogs', amount: 'monthlyAmount'},
            prepare: ({minDogs, amount}) => ({title: `${minDogs}+ dogs: +$${amount}/month`}),
          },
        }),
      ],
      validation: (rule) =>
        rule
          .required()
          .min(1)
          .custom((tiers: {minDogs?: number; monthlyAmount?: number}[] | undefined) => {
            if (!tiers) return true
            const counts = tiers.map((tier) => tier.minDogs)
            if (new Set(counts).size !== counts.length) return 'Two tiers start at the same dog count'
            const sorted = [...tiers].sort((a, b) => (a.minDogs ?? 0) - (b.minDogs ?? 0))
            for (let i = 1; i < sorted.length; i++) {
              if ((sorted[i].monthlyAmount ?? 0) < (sorted[i - 1].monthlyAmount ?? 0)) {
                return 'More dogs should not cost less'
              }
            }
            return true
          }),
    }),
    defineField({
      name: 'order',
      title: 'Position',
      type: 'number',
      validation: (rule) => rule.required().integer().min(0),
    }),
  ],
})
