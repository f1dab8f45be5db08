/** Client-safe booking lists; their one home (see visits/visit-constants.ts for the rule). */
export const BOOKING_STATUSES = [
  "pending",
  "confirmed",
  "completed",
  "cancelled",
  // The calendar moved the booking: a new booking replaces this one.
  "rescheduled",
  // The owner cancelled in the calendar and asked the customer to pick another time.
  "reschedule_requested",
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** What a person reads for each status (badges, the admin's filters). */
export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  completed: "Completed",
  cancelled: "Cancelled",
  rescheduled: "Rescheduled",
  reschedule_requested: "Reschedule requested",
};

export const BOOKING_SOURCES = ["calendar", "admin", "website"] as const;
export type BookingSource = (typeof BOOKING_SOURCES)[number];

/** The external calendars whose signed webhooks write bookings. */
export const BOOKING_PROVIDERS = ["cal_com", "calendly"] as const;
export type BookingProvider = (typeof BOOKING_PROVIDERS)[number];

/** A booking whose calendar event type has no mapping in the site settings. */
export const OTHER_SERVICE_TYPE = "Other";

/** The admin's buttons on a booking, in the order the page shows them (the posted `intent`). */
export const BOOKING_ACTIONS = ["assign", "confirm", "create-visit", "cancel"] as const;
export type BookingAction = (typeof BOOKING_ACTIONS)[number];
