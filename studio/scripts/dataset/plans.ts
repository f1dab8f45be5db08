export type PlanSource = {
  slug: string
  name: string
  kind: 'subscription' | 'one-time'
  /** Subscriptions only: visits a week (a customer's plan has as many service weekdays). */
  visitsPerWeek?: number
  /** Minutes a technician spends at one visit of this plan (the route's arrival times). */
  serviceMinutes: number
  amount: number
  unit: 'month' | 'one-time' | 'per-bin' | 'from'
  shortDescription: string
  features: string[]
  popular?: {badge: string}
  order: number
  detailHeadline: string
  body: string
  ctaLabel: string
  seoTitle: string
  seoDescription: string
}

// Prices follow the catalogue reading of the spec ($89 weekly, $159 twice-weekly); the detail
// pages read the same one field, so the owner settles any change in one place.
// Bodies never repeat the price: the page prints it from the price field.
export const plans: PlanSource[] = [
  {
    slug: 'weekly',
    serviceMinutes: 15,
    name: 'Weekly Swift Service',
    kind: 'subscription',
    visitsPerWeek: 1,
    amount: 89,
    unit: 'month',
    shortDescription:
      'A once-a-week visit that keeps a one- or two-dog yard clean, fresh and ready to enjoy all year.',
    features: [
      'Once-a-week scoop and haul',
      'Waste bagged and disposed of off your property',
      'Yard inspection every visit',
      'Weather-protected scheduling',
      'No long-term contracts',
      'Skip or cancel anytime',
    ],
    order: 10,
    detailHeadline: 'A clean yard every week, without lifting a finger',
    body: `
The Weekly Swift Service is our most common plan for homes with one or two dogs. On the same day each week a Swift Scoop technician walks your whole yard, picks up every pile, bags it and hauls it away, so nothing is left sitting in your trash bin in the desert heat.

## What happens on each visit
- We let ourselves in through the gate you tell us about and close it behind us.
- We walk the yard in a grid, including rock beds, artificial turf, dog runs and side yards.
- Waste is double-bagged and taken with us for disposal.
- We check for anything that could hurt your pets, like broken sprinkler heads or holes along the fence, and let you know.
- You get a photo confirmation when we are done.

## Weather-protected scheduling
Summer heat, wind and the odd monsoon storm are part of life here. If weather makes a visit unsafe, we move it to the next available day and tell you, so you never go two weeks without service.

## No contracts
You can skip a week when you are traveling or cancel at any time. We only ask for 24 hours' notice before a scheduled visit.
`,
    ctaLabel: 'Book Now',
    seoTitle: 'Weekly Dog Poop Pickup | Swift Scoop',
    seoDescription:
      'Weekly pet waste removal in Las Vegas, Henderson and Pahrump: scoop and haul, yard inspection and photo confirmation. No contracts, skip or cancel anytime.',
  },
  {
    slug: 'twice-weekly',
    serviceMinutes: 12,
    name: 'Twice-Weekly Swift Service',
    kind: 'subscription',
    visitsPerWeek: 2,
    amount: 159,
    unit: 'month',
    shortDescription:
      'Two visits a week for busy yards, multi-dog homes and families who want the grass clean every day.',
    features: [
      'Twice-a-week service',
      'Comprehensive yard coverage',
      'Priority scheduling',
      'No contracts',
      'Skip or cancel anytime',
    ],
    popular: {badge: 'Most Popular'},
    order: 20,
    detailHeadline: 'Our most popular plan for homes where the yard never gets a day off',
    body: `
With two visits a week, waste never has time to pile up, dry out or attract flies. It is the plan most of our customers with two or more dogs choose, and the one we recommend when children play in the yard.

## What you get
- Two scheduled visits every week, spaced evenly apart.
- Comprehensive coverage of the whole yard, including side yards, dog runs and gravel areas.
- Priority scheduling when you need to move a visit.
- A photo confirmation after every visit.

## Flexible by design
There is no contract. Skip a visit or cancel anytime with 24 hours' notice before the next scheduled visit.
`,
    ctaLabel: 'Book Now',
    seoTitle: 'Twice-Weekly Pet Waste Removal | Swift Scoop',
    seoDescription:
      'Twice-weekly dog waste pickup with priority scheduling and full yard coverage across Southern Nevada. Our most popular plan, with no contracts.',
  },
  {
    slug: 'thrice-weekly',
    serviceMinutes: 10,
    name: 'Triple Swift Service',
    kind: 'subscription',
    visitsPerWeek: 3,
    amount: 225,
    unit: 'month',
    shortDescription:
      'Three visits a week for large packs, foster homes and small kennels that need a spotless yard.',
    features: [
      'Three visits every week',
      'Built for multi-dog homes, fosters and small kennels',
      'Comprehensive yard coverage',
      'Priority scheduling',
      'No contracts, skip or cancel anytime',
    ],
    order: 30,
    detailHeadline: 'Three visits a week for the busiest yards in the valley',
    body: `
When several dogs share one yard, waste builds up fast. The Triple Swift Service brings a technician to your property three times a week, so the yard stays clean, the smell stays down and your dogs always have a fresh place to play.

## Who it is for
- Homes with three or more dogs.
- Foster families and rescues.
- Small kennels, groomers and pet sitters who work from home.

## What is included
- Three scheduled visits a week with full yard coverage.
- Waste bagged and hauled away every visit.
- Priority scheduling and a photo confirmation after each visit.

As with every plan, there is no contract: skip or cancel anytime with 24 hours' notice.
`,
    ctaLabel: 'Book Now',
    seoTitle: 'Three-Times-a-Week Dog Waste Service | Swift Scoop',
    seoDescription:
      'Triple Swift Service: pet waste removal three times a week for multi-dog homes, fosters and small kennels in Southern Nevada. No contracts.',
  },
  {
    slug: 'desert-dash',
    serviceMinutes: 45,
    name: 'Swift Dash',
    kind: 'one-time',
    amount: 85,
    unit: 'one-time',
    shortDescription:
      'A one-time scoop and haul before a party, a showing or a move, with no commitment.',
    features: ['One-time scoop and haul', 'Waste bagged and removed from your property', 'No contracts or commitment'],
    order: 40,
    detailHeadline: 'One visit, one clean yard, no strings attached',
    body: `
Hosting a barbecue, getting the house ready to sell, or just catching up after a busy month? Book a Swift Dash and we will clear every pile from your yard in a single visit.

## How it works
1. Request a quote and tell us about your yard and your dogs.
2. We confirm a date and time during business hours.
3. Our technician scoops the whole yard, bags the waste and takes it away.
4. You get a photo confirmation when we are done.

There is nothing to sign and nothing to cancel afterwards. If you like the result, you can move to a weekly plan at any time.
`,
    ctaLabel: 'Book Now',
    seoTitle: 'One-Time Dog Poop Cleanup | Swift Dash | Swift Scoop',
    seoDescription:
      'Swift Dash: a one-time pet waste scoop and haul for your yard in Las Vegas, Henderson, Pahrump and nearby. No contracts, no commitment.',
  },
  {
    slug: 'desert-refresh',
    serviceMinutes: 60,
    name: 'Swift Refresh',
    kind: 'one-time',
    amount: 135,
    unit: 'one-time',
    shortDescription:
      'Our premium one-time deep clean: a full scoop and haul followed by sanitizing and deodorizing.',
    features: [
      'Full scoop and haul',
      'Yard sanitization',
      'Eco-friendly deodorizing spray',
      'Bacteria neutralization',
      'Full yard coverage',
    ],
    order: 50,
    detailHeadline: 'A premium deep clean that leaves the yard clean and smelling fresh',
    body: `
The Swift Refresh goes further than a scoop. After removing every pile, we treat the areas your dogs use most with a pet-safe sanitizer and an eco-friendly deodorizer that neutralizes the bacteria behind lingering odors.

## What we do
- Remove and haul away all pet waste from the entire yard.
- Sanitize high-traffic areas, turf and gravel where urine and waste collect.
- Apply an eco-friendly deodorizing spray.
- Neutralize odor-causing bacteria instead of masking the smell.

## Good to know
Keep pets and children off treated areas until they are dry, usually within an hour in our climate. The Swift Refresh is a one-time service; many customers book it at the start of summer or before guests arrive.
`,
    ctaLabel: 'Book Now',
    seoTitle: 'Swift Refresh Yard Deep Clean | Swift Scoop',
    seoDescription:
      'Swift Refresh: a premium one-time pet waste cleanup with sanitizing, eco-friendly deodorizing and bacteria neutralization across Southern Nevada.',
  },
  {
    slug: 'neglected-property',
    serviceMinutes: 120,
    name: 'Neglected Property Cleanup',
    kind: 'one-time',
    amount: 250,
    unit: 'from',
    shortDescription:
      'For yards that have been left for months: a heavy-duty cleanup, priced after a look at the property.',
    features: [
      'Removal of heavy, long-term waste build-up',
      'Ideal for move-ins, rentals and foreclosures',
      'Final price confirmed before we start',
      'Waste bagged and hauled away',
      'Optional sanitizing add-on',
    ],
    order: 60,
    detailHeadline: 'Heavy-duty cleanup for yards that got away from you',
    body: `
New home, rental turnover, or a yard that simply got away from you? Our neglected property cleanup handles months of build-up so you can start fresh.

## How pricing works
The price shown is a starting price. Because every neglected yard is different, we confirm the final price from photos or a quick site visit before any work begins. You will never be charged more than the price you approve.

## What is included
- Removal of all pet waste, including old and dried waste in rock beds and along fences.
- Bagging and haul-away of everything we collect.
- A photo confirmation of the finished yard.

Want the yard sanitized as well? Ask about adding the Sanitize & Deodorize Package to the same visit.
`,
    ctaLabel: 'Book Now',
    seoTitle: 'Neglected Yard Pet Waste Cleanup | Swift Scoop',
    seoDescription:
      'Heavy-duty pet waste cleanup for neglected yards, rentals and move-ins in Southern Nevada. Final price confirmed before any work starts.',
  },
  {
    slug: 'yard-refresh',
    serviceMinutes: 60,
    name: 'Yard Refresh Pro',
    kind: 'one-time',
    amount: 75,
    unit: 'one-time',
    shortDescription:
      'A deodorizing and sanitizing treatment that keeps your yard smelling fresh for weeks.',
    features: ['Deodorizing treatment', 'Pet-safe sanitizer spray', 'Freshness that lasts 2–4 weeks'],
    order: 70,
    detailHeadline: 'Fresh air in the backyard again',
    body: `
Even a yard that is scooped every week can hold on to odors, especially on artificial turf and in the summer heat. Yard Refresh Pro treats the whole yard with a deodorizer and a pet-safe sanitizer spray.

## What to expect
- A deodorizing treatment for turf, gravel and patios.
- A pet-safe sanitizer spray on the areas your dogs use most.
- Freshness that typically lasts two to four weeks, depending on how many dogs use the yard.

Pets and children can return to the yard once the treatment has dried. Pair it with any scooping plan for the best results.
`,
    ctaLabel: 'Book Now',
    seoTitle: 'Yard Refresh Pro Deodorizing Treatment | Swift Scoop',
    seoDescription:
      'Yard Refresh Pro: pet-safe sanitizer and deodorizing treatment for turf and gravel yards, with freshness that lasts two to four weeks.',
  },
  {
    slug: 'sanitize-deodorize',
    serviceMinutes: 30,
    name: 'Sanitize & Deodorize Package',
    kind: 'one-time',
    amount: 95,
    unit: 'one-time',
    shortDescription:
      'A thorough sanitizing treatment against germs, parasites and odor; we suggest it as a quarterly deep clean.',
    features: [
      'EPA-approved sanitizer',
      'Enzyme odor treatment',
      'Parasite control',
      'Residual protection',
      'Safe for pets and children after drying',
    ],
    order: 80,
    detailHeadline: 'A quarterly deep clean for a healthier yard',
    body: `
Pet waste can leave behind bacteria and parasite eggs long after it is picked up. The Sanitize & Deodorize Package treats your yard with an EPA-approved sanitizer and an enzyme odor treatment that breaks down the source of the smell.

## What the package includes
- An EPA-approved sanitizer applied to high-traffic pet areas.
- An enzyme-based odor treatment for turf, gravel and concrete.
- Parasite control to reduce the spread of worms and other parasites between pets.
- Residual protection that keeps working after we leave.

## How often?
We suggest it as a quarterly deep clean, alongside your regular scooping plan. The treatment is safe for pets and children once it has dried.
`,
    ctaLabel: 'Book Now',
    seoTitle: 'Yard Sanitizing & Deodorizing Package | Swift Scoop',
    seoDescription:
      'EPA-approved yard sanitizer, enzyme odor treatment and parasite control for pet owners in Southern Nevada. Safe for pets and children once dry.',
  },
  {
    slug: 'trash-bin-clean',
    serviceMinutes: 20,
    name: 'Trash Bin Clean',
    kind: 'one-time',
    amount: 20,
    unit: 'per-bin',
    shortDescription:
      'A pressure-washed, scrubbed and deodorized trash bin: no more smell in the driveway.',
    features: ['High-pressure exterior wash', 'Interior scrub', 'Deodorizing treatment', 'Rinse and dry'],
    order: 90,
    detailHeadline: 'Clean, fresh-smelling bins after every wash',
    body: `
Trash and recycling bins bake in the Nevada sun, and bags of pet waste make them worse. Our bin cleaning removes the grime and the smell.

## Every wash includes
- A high-pressure wash of the outside of the bin.
- A scrub of the inside, bottom and lid.
- A deodorizing treatment.
- A final rinse, and the bin is left to dry upside down.

We clean on your collection day after the truck has come, so the bins are empty. Wash water is kept out of storm drains.
`,
    ctaLabel: 'Book Bin Cleaning',
    seoTitle: 'Trash Bin Cleaning in Las Vegas & Pahrump | Swift Scoop',
    seoDescription:
      'Trash bin cleaning: high-pressure exterior wash, interior scrub, deodorizing, rinse and dry. Book it on its own or with your pet waste plan.',
  },
]

export const quoteOptions: {value: string; label: string; plan: string | null}[] = [
  {value: 'weekly', label: 'Weekly Swift Service', plan: 'weekly'},
  {value: 'twice-weekly', label: 'Twice-Weekly Swift Service', plan: 'twice-weekly'},
  {value: 'dash', label: 'Swift Dash (one-time cleanup)', plan: 'desert-dash'},
  {value: 'refresh', label: 'Swift Refresh (one-time deep clean)', plan: 'desert-refresh'},
  {value: 'yard-refresh', label: 'Yard Refresh Pro', plan: 'yard-refresh'},
  {value: 'commercial', label: 'Commercial or HOA property', plan: null},
]
