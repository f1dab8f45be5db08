import {defineField, defineType} from 'sanity'

/** A closing banner with one button. Where the button goes is decided by the page. */
export const callToAction = defineType({
  name: 'callToAction',
  title: 'Call to action',
  type: 'object',
  fields: [
    defineField({
      name: 'heading',
      title: 'Heading',
      type: 'string',
      validation: (rule) => rule.required().max(100),
    }),
    defineField({name: 'text', title: 'Text', type: 'text', rows: 2, validation: (rule) => rule.max(400)}),
    defineField({
      name: 'buttonLabel',
      title: 'Button label',
      type: 'string',
      validation: (rule) => rule.required().max(40),
    }),
  ],
})
