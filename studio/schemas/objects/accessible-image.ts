import {defineField, defineType} from 'sanity'

/** An image that cannot be published without a text alternative. */
export const accessibleImage = defineType({
  name: 'accessibleImage',
  title: 'Image',
  type: 'image',
  options: {hotspot: true},
  fields: [
    defineField({
      name: 'alt',
      title: 'Alternative text',
      type: 'string',
      description: 'Describe the picture for visitors who cannot see it.',
      validation: (rule) =>
        rule.custom((alt, context) => {
          const image = context.parent as {asset?: unknown} | undefined
          if (image?.asset && !alt?.trim()) return 'Alternative text is required for an image'
          return true
        }),
    }),
  ],
})
