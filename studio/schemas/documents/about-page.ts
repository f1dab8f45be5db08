import {defineField, defineType} from 'sanity'
import {whyChooseField} from '../lib/why-choose-field'

export const aboutPage = defineType({
  name: 'aboutPage',
  title: 'About page',
  type: 'document',
  fields: [
    defineField({name: 'hero', title: 'Heading', type: 'pageSection', validation: (rule) => rule.required()}),
    defineField({
      name: 'whoWeAre',
      title: 'Who we are',
      type: 'object',
      validation: (rule) => rule.required(),
      fields: [
        defineField({name: 'heading', title: 'Heading', type: 'string', validation: (rule) => rule.required()}),
        defineField({name: 'body', title: 'Body', type: 'portableText', validation: (rule) => rule.required().min(1)}),
        defineField({name: 'image', title: 'Image', type: 'accessibleImage'}),
      ],
    }),
    defineField({name: 'promise', title: 'Our promise', type: 'pageSection', validation: (rule) => rule.required()}),
    whyChooseField({maxItems: 10}),
    defineField({
      name: 'serviceArea',
      title: 'Service area',
      type: 'pageSection',
      description: 'The areas themselves are in Site settings.',
      validation: (rule) => rule.required(),
    }),
    defineField({name: 'guarantee', title: 'Guarantee', type: 'pageSection', validation: (rule) => rule.required()}),
    defineField({name: 'cta', title: 'Closing call to action', type: 'callToAction', validation: (rule) => rule.required()}),
    defineField({name: 'seo', title: 'Search engine listing', type: 'seo', validation: (rule) => rule.required()}),
  ],
  preview: {select: {media: 'whoWeAre.image'}, prepare: ({media}) => ({title: 'About page', media})},
})
