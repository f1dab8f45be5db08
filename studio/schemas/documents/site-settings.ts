import {defineArrayMember, defineField, defineType} from 'sanity'
import {noDuplicateStrings, PHONE_PATTERN, ZIP_PATTERN} from '../lib/validation'
import {VISIT_TYPES} from '../lib/visit-types'

const socialUrl = (name: string, title: string, host: string) =>
  defineField({
    name,
    title,
    type: 'url',
    validation: (rule) =>
      rule.uri({scheme: ['https']}).custom((url) => {
        if (!url) return true
        return new URL(url).hostname.endsWith(host) ? true : `Expected a link on ${host}`
      }),
  })

export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Site settings',
  type: 'document',
  groups: [
    {name: 'business', title: 'Business', default: true},
    {name: 'area', title: 'Service area'},
    {name: 'trust', title: 'Promises & badges'},
    {name: 'plans', title: 'Plans & schedule'},
    {name: 'billing', title: 'Billing'},
    {name: 'signUp', title: 'Start online'},
    {name: 'route', title: 'Route'},
    {name: 'links', title: 'Links'},
    {name: 'seo', title: 'Search engines'},
  ],
  fields: [
    defineField({
      name: 'businessName',
      title: 'Business name',
      type: 'string',
      group: 'business',
      validation: (rule) => rule.required().max(80),
    }),
    defineField({
      name: 'tagline',
      title: 'Tagline',
      type: 'string',
      group: 'business',
      validation: (rule) => rule.required().max(120),
    }),
    defineField({
      name: 'phone',
      title: 'Phone',
      type: 'string',
      group: 'business',
      description: 'Written as visitors read it, e.g. (775) 555-0142.',
      validation: (rule) => rule.required().regex(PHONE_PATTERN, {name: 'phone (775) 555-0142'}),
    }),
    defineField({
      name: 'email',
      title: 'E-mail',
      type: 'string',
      group: 'business',
      validation: (rule) => rule.required().email(),
    }),
    defineField({
      name: 'hours',
      title: 'Opening hours',
      type: 'businessHours',
      group: 'business',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'address',
      title: 'Business location',
      type: 'object',
      group: 'business',
      description: 'Used by search engines (no street address is shown).',
      options: {columns: 2},
      validation: (rule) => rule.required(),
      fields: [
        defineField({
          name: 'locality',
          title: 'City',
          type: 'string',
          validation: (rule) => rule.required(),
        }),
        defineField({
          name: 'region',
          title: 'State (2 letters)',
          type: 'string',
          validation: (rule) => rule.required().regex(/^[A-Z]{2}$/, {name: 'two capital letters'}),
        }),
        defineField({
          name: 'postalCode',
          title: 'ZIP code',
          type: 'string',
          validation: (rule) => rule.required().regex(ZIP_PATTERN, {name: '5-digit ZIP'}),
        }),
        defineField({
          name: 'country',
          title: 'Country (2 letters)',
          type: 'string',
          initialValue: 'US',
          validation: (rule) => rule.required().regex(/^[A-Z]{2}$/, {name: 'two capital letters'}),
        }),
      ],
    }),
    defineField({
      name: 'serviceAreas',
      title: 'Service areas',
      type: 'array',
      group: 'area',
      of: [defineArrayMember({type: 'string'})],
      validation: (rule) => rule.required().min(1).custom(noDuplicateStrings),
    }),
    defineField({
      name: 'servedZipCodes',
      title: 'Served ZIP codes',
      type: 'array',
      group: 'area',
      of: [
        defineArrayMember({
          type: 'string',
          validation: (rule) => rule.required().regex(ZIP_PATTERN, {name: '5-digit ZIP'}),
        }),
      ],
      validation: (rule) => rule.required().min(1).custom(noDuplicateStrings),
    }),
    defineField({
      name: 'promises',
      title: 'Promises',
      type: 'array',
      group: 'trust',
      of: [defineArrayMember({type: 'highlight'})],
      validation: (rule) => rule.required().min(1),
    }),
    defineField({
      name: 'trustBadges',
      title: 'Trust badges',
      type: 'array',
      group: 'trust',
      of: [defineArrayMember({type: 'highlight'})],
      validation: (rule) => rule.required().min(1).max(8),
    }),
    defineField({
      name: 'social',
      title: 'Social links',
      type: 'object',
      group: 'links',
      fields: [
        socialUrl('facebook', 'Facebook', 'facebook.com'),
        socialUrl('instagram', 'Instagram', 'instagram.com'),
        socialUrl('tiktok', 'TikTok', 'tiktok.com'),
        socialUrl('youtube', 'YouTube', 'youtube.com'),
      ],
    }),
    defineField({
      name: 'bookingCalendarUrl',
      title: 'Booking calendar URL',
      type: 'url',
      group: 'links',
      description: 'The external scheduling page customers open from their dashboard.',
      validation: (rule) => rule.required().uri({scheme: ['https']}),
    }),
    defineField({
      name: 'bookingServiceTypes',
      title: 'Calendar event types',
      type: 'array',
      group: 'links',
      description:
        'Which visit a calendar booking is, by the event type it was booked as: the Cal.com event slug (e.g. weekly-cleanup) or the Calendly event name (Weekly Cleanup and weekly-cleanup both match). Event types not listed here show as "Other".',
      of: [
        defineArrayMember({
          name: 'bookingServiceType',
          title: 'Event type',
          type: 'object',
          fields: [
            defineField({
              name: 'eventType',
              title: 'Calendar event type',
              type: 'string',
              validation: (rule) => rule.required().max(200),
            }),
            defineField({
              name: 'serviceType',
              title: 'Visit type',
              type: 'string',
              options: {list: [...VISIT_TYPES]},
              validation: (rule) =>
                rule
                  .required()
                  .custom((value) =>
                    !value || (VISIT_TYPES as readonly string[]).includes(value) ? true : 'Pick one of the listed visit types',
                  ),
            }),
          ],
          preview: {select: {title: 'eventType', subtitle: 'serviceType'}},
        }),
      ],
      validation: (rule) =>
        rule.custom((items: {eventType?: string}[] | undefined) => {
          const keys = (items ?? []).map((item) => item.eventType?.trim().toLowerCase()).filter(Boolean)
          return new Set(keys).size === keys.length ? true : 'Each calendar event type can be listed once'
        }),
    }),
    defineField({
      name: 'planRules',
      title: 'Plan rules',
      type: 'object',
      group: 'plans',
      description:
        'The rules customers’ plans follow. The Terms quote the change notice and the longest pause from here, so change them here, not in the text.',
      options: {collapsible: false},
      fields: [
        defineField({
          name: 'changeNoticeHours',
          title: 'Change notice (hours)',
          type: 'number',
          description: 'How long before a visit starts a customer can still skip it or undo a skip.',
          initialValue: 24,
          validation: (rule) => rule.required().integer().min(0).max(168),
        }),
        defineField({
          name: 'longestPauseDays',
          title: 'Longest pause (days)',
          type: 'number',
          initialValue: 90,
          validation: (rule) => rule.required().integer().min(1).max(365),
        }),
        defineField({
          name: 'horizonDays',
          title: 'Plan horizon (days)',
          type: 'number',
          description: 'How far ahead each plan’s visits are scheduled.',
          initialValue: 28,
          validation: (rule) => rule.required().integer().min(7).max(90),
        }),
        defineField({
          name: 'firstVisitTime',
          title: 'First visit time',
          type: 'string',
          description: 'When a plan’s visits start on a service day, as HH:MM (24-hour clock), e.g. 08:00.',
          initialValue: '08:00',
          validation: (rule) => rule.required().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, {name: 'time HH:MM'}),
        }),
        defineField({
          name: 'closedDays',
          title: 'Closed days',
          type: 'array',
          description:
            'Days with no visits, e.g. Thanksgiving. A plan’s visit on a closed day moves to the next weekday that is not closed.',
          of: [
            defineArrayMember({
              name: 'closedDay',
              title: 'Closed day',
              type: 'object',
              fields: [
                defineField({name: 'date', title: 'Date', type: 'date', validation: (rule) => rule.required()}),
                defineField({
                  name: 'name',
                  title: 'Name',
                  type: 'string',
                  validation: (rule) => rule.required().max(80),
                }),
              ],
              preview: {select: {title: 'name', subtitle: 'date'}},
            }),
          ],
          validation: (rule) =>
            rule.custom((items: {date?: string}[] | undefined) => {
              const dates = (items ?? []).map((item) => item.date).filter(Boolean)
              return new Set(dates).size === dates.length ? true : 'Each date can be listed once'
            }),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'signUp',
      title: 'Start online (/start)',
      type: 'object',
      group: 'signUp',
      description:
        'What the online sign-up offers: the areas with their ZIP codes and service days, the same-day cut-off, how many visits a day can hold, and the initial clean’s price by when the yard was last cleaned. Leave it empty to keep /start closed (visitors are sent to the quote form).',
      options: {collapsible: false},
      fields: [
        defineField({
          name: 'areas',
          title: 'Areas',
          type: 'array',
          description: 'A ZIP code in one of these areas can sign up online; any other ZIP joins the waitlist.',
          of: [
            defineArrayMember({
              name: 'signUpArea',
              title: 'Area',
              type: 'object',
              fields: [
                defineField({name: 'name', title: 'Name', type: 'string', validation: (rule) => rule.required().max(80)}),
                defineField({
                  name: 'zipCodes',
                  title: 'ZIP codes',
                  type: 'array',
                  of: [
                    defineArrayMember({
                      type: 'string',
                      validation: (rule) => rule.required().regex(ZIP_PATTERN, {name: '5-digit ZIP'}),
                    }),
                  ],
                  validation: (rule) => rule.required().min(1).custom(noDuplicateStrings),
                }),
                defineField({
                  name: 'serviceDays',
                  title: 'Service days',
                  type: 'array',
                  description: 'The weekdays the trucks serve this area (Monday to Friday).',
                  of: [defineArrayMember({type: 'string'})],
                  options: {list: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']},
                  validation: (rule) => rule.required().min(1).custom(noDuplicateStrings),
                }),
              ],
              preview: {select: {title: 'name'}},
            }),
          ],
          validation: (rule) =>
            rule.required().min(1).custom((areas: {zipCodes?: string[]}[] | undefined) => {
              const zips = (areas ?? []).flatMap((area) => area.zipCodes ?? [])
              return new Set(zips).size === zips.length ? true : 'Each ZIP code can be in one area only'
            }),
        }),
        defineField({
          name: 'sameDayCutoff',
          title: 'Same-day cut-off',
          type: 'string',
          description:
            'A sign-up before this time (HH:MM, 24-hour clock) can have its first visit today, when today is a service day and not full.',
          initialValue: '10:00',
          validation: (rule) => rule.required().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, {name: 'time HH:MM'}),
        }),
        defineField({
          name: 'dailyVisitCapacity',
          title: 'Visits a day',
          type: 'number',
          description: 'How many visits a day can hold. A full day is not offered as a first visit.',
          initialValue: 40,
          validation: (rule) => rule.required().integer().min(1).max(1000),
        }),
        defineField({
          name: 'initialCleans',
          title: 'Initial clean prices',
          type: 'array',
          description:
            'The answers to “When was the yard last cleaned?”, in order, each with the one-time price of the first clean (0 for none).',
          of: [
            defineArrayMember({
              name: 'initialClean',
              title: 'Answer',
              type: 'object',
              fields: [
                defineField({
                  name: 'answer',
                  title: 'Key',
                  type: 'string',
                  description: 'A short key for the answer, e.g. 1-3-months. Do not change it once customers use it.',
                  validation: (rule) => rule.required().regex(/^[a-z0-9-]{1,40}$/, {name: 'lower-case key'}),
                }),
                defineField({name: 'label', title: 'Answer', type: 'string', validation: (rule) => rule.required().max(80)}),
                defineField({
                  name: 'amount',
                  title: 'Price (dollars)',
                  type: 'number',
                  validation: (rule) => rule.required().min(0).max(10000).precision(2),
                }),
              ],
              preview: {select: {title: 'label', subtitle: 'amount'}},
            }),
          ],
          validation: (rule) => rule.required().min(1),
        }),
      ],
    }),
    defineField({
      name: 'billingRules',
      title: 'Billing rules',
      type: 'object',
      group: 'billing',
      description: 'How the monthly invoices are made from customers’ plans. Changes apply to the next invoices.',
      options: {collapsible: false},
      fields: [
        defineField({
          name: 'billingDay',
          title: 'Billing day of the month',
          type: 'number',
          description:
            'The day each month’s invoices are made for the month ahead (1 to 28). On 1, the invoice for March is made on March 1; on 25, on February 25.',
          initialValue: 1,
          validation: (rule) => rule.required().integer().min(1).max(28),
        }),
        defineField({
          name: 'prorateFirstMonth',
          title: 'Prorate the first month',
          type: 'boolean',
          description: 'A plan that starts mid-month pays its first month by the visits left in it.',
          initialValue: true,
          validation: (rule) => rule.required(),
        }),
        defineField({
          name: 'creditSkippedVisits',
          title: 'Credit skipped visits',
          type: 'boolean',
          description:
            'A visit the customer skipped with notice is credited on the next invoice at the plan’s per-visit rate (monthly price × 12 ÷ 52 ÷ visits a week). Missed visits (locked gate, dog in yard) are never credited.',
          initialValue: true,
          validation: (rule) => rule.required(),
        }),
        defineField({
          name: 'graceDays',
          title: 'Grace days',
          type: 'number',
          description: 'Days after a failed payment before the plan is paused.',
          initialValue: 7,
          validation: (rule) => rule.required().integer().min(0).max(60),
        }),
        defineField({
          name: 'priceChangeNoticeDays',
          title: 'Price change notice (days)',
          type: 'number',
          description:
            'A new catalogue price applies to existing plans from the first of the month at least this many days away; customers are e-mailed. The Terms quote it from here.',
          initialValue: 14,
          validation: (rule) => rule.required().integer().min(0).max(120),
        }),
        defineField({
          name: 'invoiceFooter',
          title: 'Invoice footer',
          type: 'text',
          rows: 3,
          description: 'Printed at the bottom of every invoice, e.g. how to pay and whom to call.',
          validation: (rule) => rule.required().max(500),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'reviewRequests',
      title: 'Review requests',
      type: 'object',
      group: 'links',
      description:
        'One e-mail per customer, ever, after their first completed visits, asking for a Google review, with a private “Tell us what to improve” link beside it. It is never sent in a week with a missed visit or a private note. Never offer anything for a review: the FTC forbids it.',
      options: {collapsible: false},
      fields: [
        defineField({
          name: 'reviewUrl',
          title: 'Review link',
          type: 'url',
          description:
            'Your Google Business Profile’s “Ask for reviews” link (g.page/r/… or search.google.com/local/writereview?placeid=…). Empty: no review requests are sent.',
          validation: (rule) => rule.uri({scheme: ['https']}),
        }),
        defineField({
          name: 'afterCompletedVisits',
          title: 'After this many completed visits',
          type: 'number',
          description: 'The request goes out with the completion e-mail of this visit (3 when empty).',
          initialValue: 3,
          validation: (rule) => rule.integer().min(1).max(100),
        }),
      ],
    }),
    defineField({
      name: 'tips',
      title: 'Tips for technicians',
      type: 'object',
      group: 'billing',
      description:
        'The completion e-mail offers these tips (and “Other”). All of a tip goes to the technician who did the visit.',
      options: {collapsible: false},
      fields: [
        defineField({
          name: 'amounts',
          title: 'Tip amounts (dollars)',
          type: 'array',
          of: [{type: 'number'}],
          description: 'Whole dollars, 1 to 500, e.g. 5, 10 and 20. At most six.',
          validation: (rule) =>
            rule
              .required()
              .min(1)
              .max(6)
              .custom((amounts: number[] | undefined) =>
                (amounts ?? []).every((amount) => Number.isInteger(amount) && amount >= 1 && amount <= 500)
                  ? true
                  : 'Each amount is a whole number of dollars from 1 to 500',
              ),
        }),
        defineField({
          name: 'payPeriodStart',
          title: 'First day of a pay period',
          type: 'date',
          description: 'Pay periods are two weeks long from this day; the Staff page totals each technician’s tips by them.',
          validation: (rule) => rule.required(),
        }),
      ],
    }),
    defineField({
      name: 'routeStart',
      title: 'Route start',
      type: 'object',
      group: 'route',
      description:
        'Where each day’s route starts: the business’s base, where the trucks leave from. Today orders the day’s visits from here. Find the coordinates by right-clicking the place in any map.',
      options: {collapsible: false},
      fields: [
        defineField({
          name: 'name',
          title: 'Name',
          type: 'string',
          description: 'As the technicians call it, e.g. “Swift Scoop yard, Pahrump”.',
          validation: (rule) => rule.required().max(80),
        }),
        defineField({
          name: 'latitude',
          title: 'Latitude',
          type: 'number',
          description: 'Degrees north, e.g. 36.163631.',
          validation: (rule) => rule.required().min(-90).max(90),
        }),
        defineField({
          name: 'longitude',
          title: 'Longitude',
          type: 'number',
          description: 'Degrees east; west is negative, e.g. -115.98748.',
          validation: (rule) => rule.required().min(-180).max(180),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'routeSettings',
      title: 'Route timing',
      type: 'object',
      group: 'route',
      description:
        'How Today estimates distances and arrival times. No map service is used: distances are straight lines times the detour factor.',
      options: {collapsible: false},
      fields: [
        defineField({
          name: 'circuityFactor',
          title: 'Detour factor (circuity)',
          type: 'number',
          description: 'Road distance divided by straight-line distance; 1.3 suits most towns.',
          initialValue: 1.3,
          validation: (rule) => rule.required().min(1).max(3),
        }),
        defineField({
          name: 'averageSpeedMph',
          title: 'Average driving speed (mph)',
          type: 'number',
          initialValue: 30,
          validation: (rule) => rule.required().min(5).max(80),
        }),
        defineField({
          name: 'defaultServiceMinutes',
          title: 'Minutes at a visit without a plan',
          type: 'number',
          description: 'For visits not made from a plan; a plan’s visits use the plan’s own minutes.',
          initialValue: 15,
          validation: (rule) => rule.required().integer().min(1).max(480),
        }),
        defineField({
          name: 'minutesPerExtraDog',
          title: 'Minutes per extra dog',
          type: 'number',
          description: 'Added for each dog after the first.',
          initialValue: 3,
          validation: (rule) => rule.required().integer().min(0).max(60),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'seo',
      title: 'Default search engine listing',
      type: 'seo',
      group: 'seo',
      validation: (rule) => rule.required(),
    }),
  ],
  preview: {prepare: () => ({title: 'Site settings'})},
})
