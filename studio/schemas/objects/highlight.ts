import {defineField, defineType} from 'sanity'

/** A short titled statement: a promise, a trust badge, a reason to choose us. */
export const highlight = defineType({
  name: 'highlight',
  title: 'Highlight',
  type: 'object',
  fields: [
    defineField({
      name: 'title',
      title: 'Title',
      type: 'string',
      validation: (rule) => rule.required().max(80),
    }),
    defineField({
      name: 'text',
      title: 'Text',
      type: 'text',
      rows: 2,
      validation: (rule) => rule.max(300),
    }),
  ],
  preview: {select: {title: 'title', subtitle: 'text'}},
})
