/**
 * The visit types of the portal (db/enums.ts VISIT_TYPES), copied
 * because the Studio builds on its own; a test (booking-service-type.server.test.ts) keeps the
 * two lists equal.
 */
export const VISIT_TYPES = [
  'Weekly Service',
  'Twice Weekly Service',
  'Thrice Weekly Service',
  'Desert Dash',
  'Desert Refresh',
  'Yard Refresh',
  'Sanitize & Deodorize',
  'Trash Bin Clean',
] as const
