import {defineField, defineType} from 'sanity'
import {noDuplicateStrings, TIME_PATTERN} from '../lib/validation'

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

export const businessHours = defineType({
  name: 'businessHours',
  title: 'Opening hours',
  type: 'object',
  fields: [
    defineField({
      name: 'days',
      title: 'Open on',
      type: 'array',
      of: [{type: 'string'}],
      options: {list: WEEKDAYS.map((day) => ({title: day, value: day}))},
      validation: (rule) => rule.required().min(1).custom(noDuplicateStrings),
    }),
    defineField({
      name: 'opens',
      title: 'Opens at (24-hour, e.g. 08:00)',
      type: 'string',
      validation: (rule) => rule.required().regex(TIME_PATTERN, {name: 'time HH:MM'}),
    }),
    defineField({
      name: 'closes',
      title: 'Closes at (24-hour, e.g. 17:00)',
      type: 'string',
      validation: (rule) =>
        rule
          .required()
          .regex(TIME_PATTERN, {name: 'time HH:MM'})
          .custom((closes, context) => {
            const opens = (context.parent as {opens?: string} | undefined)?.opens
            if (closes && opens && closes <= opens) return 'Closing time must be after opening time'
            return true
          }),
    }),
    defineField({
      name: 'display',
      title: 'As shown to visitors',
      type: 'string',
      description: 'e.g. "Monday – Friday, 8am – 5pm". Keep it in line with the fields above.',
      validation: (rule) => rule.required().max(80),
    }),
  ],
})
