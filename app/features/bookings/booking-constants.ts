/** Client-safe booking lists; their one home (see visits/visit-constants.ts for the rule). */
export const BOOKING_STATUSES = ["pending", "confirmed", "completed", "cancelled"] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_SOURCES = ["calendar", "admin", "website"] as const;
export type BookingSource = (typeof BOOKING_SOURCES)[number];
