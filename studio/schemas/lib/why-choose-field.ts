import {defineField} from 'sanity'

/** The "Why choose us" list shared by the home, about and contact pages: a heading and reasons. */
export function whyChooseField({maxItems}: {maxItems: number}) {
  return defineField({
    name: 'whyChoose',
    title: 'Why choose us',
    type: 'object',
    validation: (rule) => rule.required(),
    fields: [
      defineField({name: 'heading', title: 'Heading', type: 'string', validation: (rule) => rule.required()}),
      defineField({
        name: 'items',
        title: 'Reasons',
        type: 'array',
        of: [{type: 'highlight'}],
        validation: (rule) => rule.required().min(1).max(maxItems),
      }),
    ],
  })
}
