import {business} from './business'
import type {Scene} from './pictures'

/** The gallery page copy and the Before & After pairs of the bundled dataset (drawn pictures). */
export const galleryPage = {
  hero: {
    heading: 'Before & After',
    text: 'Real visits, same spot, same day: drag the slider (or use the arrow keys) to compare each yard before and after we cleaned it.',
  },
  homeSection: {
    heading: 'Before & After',
    text: 'See the difference one visit makes. Every picture is published with the customer’s permission.',
  },
  viewAllLabel: 'See the whole gallery',
  emptyText: 'New pictures are on their way. Check back soon.',
  seo: {
    title: `Before & After Yard Cleanups | ${business.shortName}`,
    description:
      'Compare yards before and after a Swift Scoop visit: pet waste removal, deodorizing and sanitizing across Southern Nevada, shown with customers’ permission.',
  },
}

export const pairs: {
  id: string
  scene: Scene
  seed: number
  plan: string
  neighbourhood: string
  caption: string
  beforeAlt: string
  afterAlt: string
}[] = [
  {
    id: 'summerlin-backyard',
    scene: 'lawn',
    seed: 3,
    plan: 'desert-refresh',
    neighbourhood: 'Summerlin',
    caption: 'A backyard lawn after three dogs and two busy weeks, cleaned and deodorized in one visit.',
    beforeAlt: 'A fenced backyard lawn with patchy yellow grass and dog waste scattered across it.',
    afterAlt: 'The same lawn, clean and freshly striped, with a dog resting on the grass.',
  },
  {
    id: 'henderson-gravel',
    scene: 'gravel',
    seed: 5,
    plan: 'desert-dash',
    neighbourhood: 'Henderson',
    caption: 'Desert landscaping: every pile picked out of the gravel without disturbing the rock bed.',
    beforeAlt: 'A gravel desert yard behind a wooden fence, with dog waste between the stones.',
    afterAlt: 'The same gravel yard, clear of waste, with a dog standing by the fence.',
  },
  {
    id: 'pahrump-dog-run',
    scene: 'dog-run',
    seed: 9,
    plan: 'weekly',
    neighbourhood: 'Pahrump',
    caption: 'A dog run on weekly service: scooped, hauled away and kept fresh week after week.',
    beforeAlt: 'A lawn with a dirt dog run across it, both littered with dog waste.',
    afterAlt: 'The same lawn and dog run, clean, with a dog standing on the grass.',
  },
]
