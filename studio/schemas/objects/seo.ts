import {defineField, defineType} from 'sanity'

export const seo = defineType({
  name: 'seo',
  title: 'Search engine listing',
  type: 'object',
  description: 'What search engines and link previews show for this page.',
  fields: [
    defineField({
      name: 'title',
      title: 'Page title',
      type: 'string',
      validation: (rule) => [
        rule.required().min(10).max(70),
        rule.max(60).warning('Titles over 60 characters are usually cut off in search results.'),
      ],
    }),
    defineField({
      name: 'description',
      title: 'Meta description',
      type: 'text',
      rows: 3,
      validation: (rule) => [
        rule.required().min(50).max(200),
        rule.max(160).warning('Descriptions over 160 characters are usually cut off.'),
      ],
    }),
  ],
})
