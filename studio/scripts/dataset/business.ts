/** The business identity, written once and reused by every document that mentions it. */
export const business = {
  name: 'Swift Scoop Pet Waste Removal',
  shortName: 'Swift Scoop',
  tagline: 'Pet waste removal and yard cleaning across Southern Nevada',
  phone: '(775) 555-0142',
  email: 'hello@swiftscoopnv.com',
  bookingCalendarUrl: 'https://calendly.com/swift-scoop/service-visit',
  address: {locality: 'Pahrump', region: 'NV', postalCode: '89048', country: 'US'},
  hours: {
    days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
    opens: '08:00',
    closes: '17:00',
    display: 'Monday – Friday, 8am – 5pm',
  },
  serviceAreas: ['Pahrump', 'Las Vegas', 'Henderson', 'Beatty', 'Spring Valley', 'Summerlin'],
  // Pahrump 89041/48/60/61, Beatty 89003, Henderson 890xx, Las Vegas incl. Spring Valley
  // (89103/17/18/39/46/47/48) and Summerlin (89134/35/38/44/45).
  servedZipCodes: [
    '89002', '89003', '89011', '89012', '89014', '89015', '89041', '89044', '89048', '89052',
    '89060', '89061', '89074', '89101', '89102', '89103', '89104', '89106', '89107', '89108',
    '89109', '89110', '89113', '89115', '89117', '89118', '89119', '89120', '89121', '89122',
    '89123', '89128', '89129', '89130', '89131', '89134', '89135', '89138', '89139', '89141',
    '89142', '89143', '89144', '89145', '89146', '89147', '89148', '89149', '89166', '89178',
    '89179', '89183',
  ],
  social: {
    facebook: 'https://www.facebook.com/swiftscoopnv',
    instagram: 'https://www.instagram.com/swiftscoopnv',
    tiktok: 'https://www.tiktok.com/@swiftscoopnv',
    youtube: 'https://www.youtube.com/@swiftscoopnv',
  },
  // The rules customers' plans follow (Site settings > Plans & schedule).
  planRules: {
    changeNoticeHours: 24,
    longestPauseDays: 90,
    horizonDays: 28,
    firstVisitTime: '08:00',
    closedDays: [
      {date: '2026-11-26', name: 'Thanksgiving'},
      {date: '2026-12-25', name: 'Christmas Day'},
      {date: '2027-01-01', name: 'New Year’s Day'},
      {date: '2027-05-31', name: 'Memorial Day'},
      {date: '2027-07-05', name: 'Independence Day (observed)'},
      {date: '2027-09-06', name: 'Labor Day'},
      {date: '2027-11-25', name: 'Thanksgiving'},
      {date: '2027-12-24', name: 'Christmas Day (observed)'},
    ],
  },
  // How the monthly invoices are made (Site settings > Billing).
  billingRules: {
    billingDay: 1,
    prorateFirstMonth: true,
    creditSkippedVisits: true,
    graceDays: 7,
    priceChangeNoticeDays: 14,
    invoiceFooter:
      'Thank you for choosing Swift Scoop. Questions about this invoice? Call (775) 555-0142 or write to hello@swiftscoopnv.com within 24 hours of a visit.',
  },
  // The one review request per customer (Site settings > Links > Review requests; decision 133).
  reviewRequests: {reviewUrl: 'https://g.page/r/swift-scoop-nv/review', afterCompletedVisits: 3},

  // Tips for technicians (Site settings > Billing; docs/decisions/131): the amounts the completion
  // e-mail offers, and the Monday a two-week pay period starts from.
  tips: {amounts: [5, 10, 20], payPeriodStart: '2026-01-05'},
  // The online sign-up (/start, Site settings > Start online): the areas with their ZIP codes
  // and service days, the same-day cut-off, a day's capacity, and the initial clean by the
  // yard's last clean. Every ZIP of an area is also in servedZipCodes.
  signUp: {
    areas: [
      {name: 'Pahrump and Beatty', zipCodes: ['89003', '89041', '89048', '89060', '89061'], serviceDays: ['Monday', 'Wednesday', 'Friday']},
      {
        name: 'Henderson',
        zipCodes: ['89002', '89011', '89012', '89014', '89015', '89044', '89052', '89074', '89183'],
        serviceDays: ['Tuesday', 'Thursday'],
      },
      {
        name: 'Las Vegas, Spring Valley and Summerlin',
        zipCodes: [
          '89101', '89102', '89103', '89104', '89106', '89107', '89108', '89109', '89110', '89113',
          '89115', '89117', '89118', '89119', '89120', '89121', '89122', '89123', '89128', '89129',
          '89130', '89131', '89134', '89135', '89138', '89139', '89141', '89142', '89143', '89144',
          '89145', '89146', '89147', '89148', '89149', '89166', '89178', '89179',
        ],
        serviceDays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      },
    ],
    sameDayCutoff: '10:00',
    dailyVisitCapacity: 40,
    initialCleans: [
      {answer: 'under-2-weeks', label: 'Less than 2 weeks ago', amount: 0},
      {answer: '2-4-weeks', label: '2 to 4 weeks ago', amount: 29},
      {answer: '1-3-months', label: '1 to 3 months ago', amount: 59},
      {answer: 'over-3-months', label: 'More than 3 months ago, or never', amount: 99},
    ],
  },
  // Where each day's route starts (the yard the trucks leave from) and how the route is timed
  // (Site settings > Route; docs/decisions/093).
  routeStart: {name: 'Swift Scoop yard, Pahrump', latitude: 36.163631, longitude: -115.98748},
  routeSettings: {circuityFactor: 1.3, averageSpeedMph: 30, defaultServiceMinutes: 15, minutesPerExtraDog: 3},
  legalUpdated: '2025-01-17',
  arbitrationVenue: 'Nye County, Nevada',
}

export const areaList = (() => {
  const areas = business.serviceAreas
  return `${areas.slice(0, -1).join(', ')} and ${areas[areas.length - 1]}`
})()
