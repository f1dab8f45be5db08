import {areaList, business} from './business'

export const promises = [
  {
    title: '100% No Mess Guarantee',
    text: 'Missed a spot? Tell us and we come back within 24 hours to make it right, free of charge.',
  },
  {title: 'Licensed & Insured', text: 'A licensed Nevada business, fully insured for work on your property.'},
  {title: 'Eco-Friendly & Pet-Safe', text: 'Our sanitizers and deodorizers are chosen to be safe for pets, kids and the desert.'},
  {title: 'Satisfaction Guaranteed', text: 'If you are not happy with a visit, we will make it right.'},
  {title: 'No Contracts, Cancel Anytime', text: 'Skip a visit or cancel your plan whenever you need to.'},
  {title: 'Same-Day Setup Available', text: 'Call in the morning and your first visit can often happen the same day.'},
  {title: 'Photo Confirmation', text: 'A photo of your clean yard after every visit, so you know the job is done.'},
]

export const trustBadges = [
  {title: 'Licensed & Insured', text: 'Fully insured, licensed Nevada business.'},
  {title: 'Pet-Safe Products', text: 'Eco-friendly treatments, safe once dry.'},
  {title: 'No Contracts', text: 'Skip or cancel anytime.'},
  {title: 'Photo Confirmation', text: 'Proof of a clean yard after every visit.'},
]

export const faqs: {question: string; answer: string}[] = [
  {
    question: 'Do I need to be home when you come?',
    answer:
      'No. Most customers are at work when we visit. We just need access to the yard: leave the gate unlocked or share the gate code, and keep your dogs inside while we work. You get a photo confirmation when we are done.',
  },
  {
    question: 'What do you do with the waste?',
    answer:
      'We bag it on the spot and take it with us for proper disposal, so nothing is left in your trash bin to bake in the sun. Haul-away is included in every scooping service.',
  },
  {
    question: 'Are your products safe for my dogs and kids?',
    answer:
      'Yes. We use eco-friendly, pet-safe deodorizers and an EPA-approved sanitizer. Keep pets and children off treated areas until they are dry, which usually takes under an hour in our climate.',
  },
  {
    question: 'Is there a contract?',
    answer:
      'No. Our plans have no long-term contracts. You can skip a visit or cancel anytime; we only ask for 24 hours’ notice before a scheduled visit.',
  },
  {
    question: 'What if you miss a spot?',
    answer:
      'Our 100% No Mess Guarantee covers it. Let us know within 24 hours of your visit and we will come back within 24 hours to clean it up at no charge.',
  },
  {
    question: 'How often should I schedule service?',
    answer:
      'For one or two dogs, weekly service keeps most yards clean. Homes with more dogs, small yards or children who play outside usually prefer twice-weekly service. For big packs, fosters or kennels, three visits a week works best.',
  },
  {
    question: 'Do you charge more for more than one dog?',
    answer:
      'Subscription prices cover one dog. A small monthly add-on applies for two dogs and a slightly higher one for three or more; you can see both on our services page. One-time services are priced per visit.',
  },
  {
    question: 'What areas do you serve?',
    answer: `We serve ${areaList}. If you are just outside these areas, send us a quote request with your ZIP code and we will let you know.`,
  },
  {
    question: 'What happens if I need to cancel or reschedule a visit?',
    answer:
      'Let us know at least 24 hours before the visit and there is no charge. Late cancellations, or visits where we cannot get into the yard (a locked gate or a loose pet, for example), are billed at the full service rate.',
  },
  {
    question: 'What if the weather is bad?',
    answer:
      'If a storm, high winds or extreme heat make a visit unsafe, we move it to the next available day and let you know. You never lose a visit because of the weather.',
  },
  {
    question: 'Do you work with HOAs and commercial properties?',
    answer:
      'Yes. We service HOA common areas, dog parks, apartment communities and businesses. Choose “Commercial or HOA property” in the quote form and we will put together a custom plan.',
  },
]

export const homePage = {
  hero: {
    heading: 'Southern Nevada’s pet waste removal team',
    subheading:
      'We scoop, haul away and sanitize so you can enjoy a clean, fresh yard again. Reliable visits, a photo after every one, and no contracts.',
    primaryCtaLabel: 'View Services',
    secondaryCtaLabel: 'Contact Us',
  },
  trustSection: {
    heading: 'Why neighbors trust Swift Scoop',
    text: 'A local, insured team that shows up when we say we will and proves it with a photo.',
  },
  serviceAreaSection: {
    heading: 'Where we work',
    text: 'Regular routes across the Las Vegas valley and Nye County. Not sure if we reach your street? Send us your ZIP code.',
  },
  hoursSection: {
    heading: 'Office hours',
    text: 'Call, e-mail or send a quote request; we answer during business hours.',
  },
  servicesSection: {
    heading: 'Plans for every yard',
    text: 'From weekly scooping to one-time deep cleans, sanitizing and even trash bin washing.',
  },
  pricingLinkLabel: 'See all services and pricing',
  whyChoose: {
    heading: 'Why choose Swift Scoop',
    items: [
      {title: 'Reliable weekly routes', text: 'The same day every week, with a text if anything changes.'},
      {title: 'Thorough, every time', text: 'We walk the whole yard in a grid, including rock beds and side yards.'},
      {title: 'Pet-safe and eco-friendly', text: 'Products chosen for pets, kids and the desert.'},
      {title: 'Local and accountable', text: 'A Southern Nevada team you can call and talk to.'},
    ],
  },
  promisesSection: {heading: 'Our promises to you', text: 'Every plan and every visit comes with these.'},
  cta: {
    heading: 'Ready for a cleaner yard?',
    text: 'Tell us about your yard and your dogs and we will send you a free quote.',
    buttonLabel: 'Get a Free Quote',
  },
  seo: {
    title: 'Pet Waste Removal in Las Vegas & Pahrump | Swift Scoop',
    description:
      'Dog poop pickup, yard sanitizing and deodorizing across Las Vegas, Henderson, Pahrump and Summerlin. Photo confirmation after every visit, no contracts.',
  },
}

export const servicesPage = {
  hero: {
    heading: 'Services & pricing',
    text: 'Simple, up-front prices. Pick a recurring plan or book a one-time cleanup; no contracts either way.',
  },
  subscriptionsHeading: 'Recurring scooping plans',
  oneTimeHeading: 'One-time cleanups & treatments',
  learnMoreLabel: 'Learn More',
  addOnsSection: {
    heading: 'More than one dog?',
    text: 'Subscription prices cover one dog. Homes with more dogs add a small monthly amount:',
  },
  cta: {
    heading: 'Not sure which service fits?',
    text: 'Send us a few details and we will recommend a plan and give you a free quote.',
    buttonLabel: 'Get a Free Quote',
  },
  seo: {
    title: 'Pet Waste Removal Services & Prices | Swift Scoop',
    description:
      'Compare weekly, twice-weekly and three-times-a-week poop scooping plans, one-time cleanups, yard sanitizing and trash bin cleaning in Southern Nevada.',
  },
}

export const aboutPage = {
  hero: {
    heading: 'About Swift Scoop',
    text: 'A local team that does the dirtiest job in the yard, so you do not have to.',
  },
  whoWeAre: {
    heading: 'Who we are',
    body: `
${business.shortName} is a locally owned pet waste removal and yard cleaning company based in Pahrump, Nevada. We started with a simple idea: dog owners should be able to enjoy their yards without spending weekends with a shovel and a bag.

Today our technicians run regular routes across ${areaList}. We serve busy families, seniors, rental owners, HOAs and businesses, and we treat every yard as if our own dogs played in it.

We are licensed and insured, we use pet-safe products, and we send a photo after every visit so you always know the job is done.
`,
  },
  promise: {
    heading: 'Our promise',
    text: 'Show up on schedule, clean the whole yard, leave the gate closed and the pets safe, and tell you honestly how it went. If anything falls short, we fix it.',
  },
  whyChoose: {
    heading: 'Why choose us',
    items: [
      {title: 'No contracts', text: 'Stay because you are happy, not because you signed something.'},
      {title: 'Photo confirmation', text: 'A picture of your clean yard after every visit.'},
      {title: 'Eco-friendly, pet-safe products', text: 'Sanitizers and deodorizers that are safe once dry.'},
      {title: 'Same-day setup available', text: 'Many new customers get their first visit the day they call.'},
      {title: 'Licensed and insured', text: 'Protection for you and your property.'},
    ],
  },
  serviceArea: {
    heading: 'Our service area',
    text: 'We run regular routes through these communities. If you are close by but not listed, ask us; we are always adding stops.',
  },
  guarantee: {
    heading: '100% No Mess Guarantee',
    text: 'If we ever miss a spot, tell us within 24 hours of the visit and we will come back within 24 hours to clean it up, free of charge. Your satisfaction is guaranteed.',
  },
  cta: {
    heading: 'Let us take care of the yard',
    text: 'Get a free, no-obligation quote in a few minutes.',
    buttonLabel: 'Contact Us',
  },
  seo: {
    title: 'About Us | Swift Scoop Pet Waste Removal',
    description:
      'Swift Scoop is a locally owned, licensed and insured pet waste removal company serving Pahrump, Las Vegas, Henderson and nearby Southern Nevada communities.',
  },
}

export const contactPage = {
  hero: {
    heading: 'Contact us & get a free quote',
    text: 'Tell us about your yard and your dogs. We will reply with a price and the first available visit.',
  },
  quoteForm: {
    heading: 'Request a free quote',
    intro: 'All fields except the message are required.',
    submitLabel: 'Get My Free Quote',
  },
  callCard: {heading: 'Call us', text: 'Talk to a real person during business hours.'},
  emailCard: {heading: 'E-mail us', text: 'Write to us any time; we answer during business hours.'},
  responseTimeNote: 'We reply to every quote request within one business day.',
  serviceAreaSection: {heading: 'Service area', text: 'We serve these communities in Southern Nevada.'},
  hoursSection: {heading: 'Business hours', text: 'Closed on weekends and major holidays.'},
  faqSection: {heading: 'Frequently asked questions', text: 'Quick answers to what pet owners ask us most.'},
  whyChoose: {
    heading: 'Why choose Swift Scoop',
    items: [
      {title: '100% No Mess Guarantee', text: 'Missed spots are revisited within 24 hours.'},
      {title: 'No contracts', text: 'Skip or cancel anytime.'},
      {title: 'Photo confirmation', text: 'See your clean yard after every visit.'},
      {title: 'Pet-safe products', text: 'Eco-friendly treatments, safe once dry.'},
    ],
  },
  seo: {
    title: 'Contact Us & Free Quote | Swift Scoop',
    description:
      'Request a free pet waste removal quote, call or e-mail Swift Scoop. Serving Pahrump, Las Vegas, Henderson, Beatty, Spring Valley and Summerlin.',
  },
}

export const multiDogAddOn = {
  name: 'Multi-Dog Add-On',
  slug: 'multi-dog',
  description: 'Subscription prices include one dog. Each plan adds a monthly amount for more dogs.',
  tiers: [
    {minDogs: 2, monthlyAmount: 15},
    {minDogs: 3, monthlyAmount: 25},
  ],
}

export const siteSeo = {
  title: 'Swift Scoop Pet Waste Removal | Southern Nevada',
  description:
    'Pet waste removal, yard sanitizing and trash bin cleaning in Pahrump, Las Vegas, Henderson, Beatty, Spring Valley and Summerlin. No contracts, cancel anytime.',
}
