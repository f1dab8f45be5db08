import {defineField, defineType} from 'sanity'

/**
 * The Site settings facts a legal text can quote. The site shows the current value of the chosen
 * setting (the phone as a call link, the e-mail as a mail link), so changing the phone or e-mail in
 * Site settings changes every legal page too: no copy of them goes out of date in the text.
 */
export const SITE_SETTING_FIELDS = [
  {title: 'Phone', value: 'phone'},
  {title: 'E-mail', value: 'email'},
  {title: 'Business name', value: 'businessName'},
  {title: 'Service areas', value: 'serviceAreas'},
  {title: 'Opening hours', value: 'hours'},
  {title: 'Change notice (hours)', value: 'changeNoticeHours'},
  {title: 'Longest pause (days)', value: 'longestPauseDays'},
  {title: 'Price change notice (days)', value: 'priceChangeNoticeDays'},
] as const

export type SiteSettingField = (typeof SITE_SETTING_FIELDS)[number]['value']

const VALUES: readonly string[] = SITE_SETTING_FIELDS.map((field) => field.value)

export const siteSettingRef = defineType({
  name: 'siteSettingRef',
  title: 'Site setting',
  type: 'object',
  description: 'Shows the current value from Site settings.',
  fields: [
    defineField({
      name: 'field',
      title: 'Which setting',
      type: 'string',
      options: {list: [...SITE_SETTING_FIELDS], layout: 'radio'},
      // options.list only shapes the input; a value from an import or the API is checked here.
      validation: (rule) =>
        rule.required().custom((value) => (!value || VALUES.includes(value) ? true : 'Pick one of the listed settings')),
    }),
  ],
  preview: {
    select: {field: 'field'},
    prepare: ({field}: {field?: string}) => ({
      title: `⟨${SITE_SETTING_FIELDS.find((option) => option.value === field)?.title ?? 'Site setting'}⟩`,
    }),
  },
})
