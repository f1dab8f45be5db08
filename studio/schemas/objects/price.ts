import {defineField, defineType} from 'sanity'

export const PRICE_UNITS = [
  {title: 'Per month', value: 'month'},
  {title: 'One-time', value: 'one-time'},
  {title: 'Per bin', value: 'per-bin'},
  {title: 'From (starting price)', value: 'from'},
]

/**
 * The one price of a plan. The catalogue, the detail page, the structured data and the quote
 * estimate all read this object, so a price is changed in exactly one place.
 */
export const price = defineType({
  name: 'price',
  title: 'Price',
  type: 'object',
  options: {columns: 2},
  fields: [
    defineField({
      name: 'amount',
      title: 'Amount (US dollars)',
      type: 'number',
      validation: (rule) => [
        rule.required().error('Enter the price in dollars, e.g. 89.'),
        rule.greaterThan(0).error('A price must be more than $0.'),
        rule.max(100000).error('That price looks too high: check for an extra zero.'),
        rule.precision(2).error('Use at most two decimals (cents).'),
      ],
    }),
    defineField({
      name: 'unit',
      title: 'Unit',
      type: 'string',
      options: {list: PRICE_UNITS, layout: 'radio'},
      validation: (rule) => rule.required().error('Choose how the price is charged (per month, one-time, ...).'),
    }),
  ],
})
