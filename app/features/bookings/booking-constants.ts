/** Client-safe booking words; the value lists live in db/enums.ts (docs/decisions/016). */
import type { BookingStatus } from "../../../db/enums";

export { BOOKING_PROVIDERS, BOOKING_SOURCES, BOOKING_STATUSES } from "../../../db/enums";
export type { BookingProvider, BookingSource, BookingStatus } from "../../../db/enums";

/** What a person reads for each status (badges, the admin's filters). */
export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  completed: "Completed",
  cancelled: "Cancelled",
  rescheduled: "Rescheduled",
  reschedule_requested: "Reschedule requested",
};

/** A booking whose calendar event type has no mapping in the site settings. */
export const OTHER_SERVICE_TYPE = "Other";

/** The admin's buttons on a booking, in the order the page shows them (the posted `intent`). */
export const BOOKING_ACTIONS = ["assign", "confirm", "create-visit", "cancel"] as const;
export type BookingAction = (typeof BOOKING_ACTIONS)[number];
