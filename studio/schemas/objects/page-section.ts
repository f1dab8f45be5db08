import {defineField, defineType} from 'sanity'

/** A heading with an optional paragraph under it. */
export const pageSection = defineType({
  name: 'pageSection',
  title: 'Section',
  type: 'object',
  fields: [
    defineField({
      name: 'heading',
      title: 'Heading',
      type: 'string',
      validation: (rule) => [
        rule.required().error('Write a heading for this section.'),
        rule.max(100).error('Keep the heading under 100 characters.'),
      ],
    }),
    defineField({
      name: 'text',
      title: 'Text',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.max(600),
    }),
  ],
})
