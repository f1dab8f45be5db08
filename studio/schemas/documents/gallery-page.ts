import {defineField, defineType} from 'sanity'

/** The copy around the Before & After pairs: the /gallery page and the home page's section. */
export const galleryPage = defineType({
  name: 'galleryPage',
  title: 'Gallery page',
  type: 'document',
  fields: [
    defineField({
      name: 'hero',
      title: 'Heading',
      type: 'pageSection',
      validation: (rule) => rule.required().error('The gallery page needs a heading.'),
    }),
    defineField({
      name: 'homeSection',
      title: 'Section on the home page',
      type: 'pageSection',
      description: 'Shown above the first three pairs on the home page.',
      validation: (rule) => rule.required().error('The home page section needs a heading.'),
    }),
    defineField({
      name: 'viewAllLabel',
      title: '"See all" link label',
      type: 'string',
      initialValue: 'See the whole gallery',
      validation: (rule) => rule.required().max(40).error('Write a link label of at most 40 characters.'),
    }),
    defineField({
      name: 'emptyText',
      title: 'Text when no pair is published',
      type: 'string',
      validation: (rule) => rule.required().error('Write what visitors read when the gallery is empty.'),
    }),
    defineField({
      name: 'seo',
      title: 'Search engine listing',
      type: 'seo',
      validation: (rule) => rule.required(),
    }),
  ],
  preview: {prepare: () => ({title: 'Gallery page'})},
})
