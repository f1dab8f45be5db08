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
        rule.required().error('Write the title search engines show for this page.'),
        rule.min(10).error('Make the title at least 10 characters.'),
        rule.max(70).error('Keep the title under 70 characters.'),
        rule.max(60).warning('Titles over 60 characters are usually cut off in search results.'),
      ],
    }),
    defineField({
      name: 'description',
      title: 'Meta description',
      type: 'text',
      rows: 3,
      validation: (rule) => [
        rule.required().error('Write a one- or two-sentence summary for search results.'),
        rule.min(50).error('Make the description at least 50 characters.'),
        rule.max(200).error('Keep the description under 200 characters.'),
        rule.max(160).warning('Descriptions over 160 characters are usually cut off.'),
      ],
    }),
  ],
})
