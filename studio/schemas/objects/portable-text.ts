import {defineArrayMember, defineField, defineType} from 'sanity'

/** A text block: no H1, since the page title is the page's only H1. */
const textBlock = (inlineTypes: string[] = []) =>
  defineArrayMember({
    type: 'block',
    styles: [
      {title: 'Normal', value: 'normal'},
      {title: 'Heading 2', value: 'h2'},
      {title: 'Heading 3', value: 'h3'},
    ],
    lists: [
      {title: 'Bullets', value: 'bullet'},
      {title: 'Numbered', value: 'number'},
    ],
    marks: {
      decorators: [
        {title: 'Strong', value: 'strong'},
        {title: 'Emphasis', value: 'em'},
      ],
      annotations: [
        defineArrayMember({
          name: 'link',
          title: 'Link',
          type: 'object',
          fields: [
            defineField({
              name: 'href',
              title: 'URL',
              type: 'url',
              description: 'A full URL, a site path such as /contact, mailto: or tel:',
              validation: (rule) =>
                rule.required().uri({scheme: ['http', 'https', 'mailto', 'tel'], allowRelative: true}),
            }),
          ],
        }),
      ],
    },
    ...(inlineTypes.length ? {of: inlineTypes.map((type) => defineArrayMember({type}))} : {}),
  })

/** Rich text for page bodies. */
export const portableText = defineType({
  name: 'portableText',
  title: 'Rich text',
  type: 'array',
  of: [textBlock()],
})

/**
 * Rich text of the legal pages, which quote the business's contact details: those are inserted as
 * Site setting values (decision 054), not typed, so the pages follow Site settings.
 */
export const legalText = defineType({
  name: 'legalText',
  title: 'Legal text',
  type: 'array',
  of: [textBlock(['siteSettingRef'])],
})
