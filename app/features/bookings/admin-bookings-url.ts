import type { BookingStatus } from "./booking-constants";

/** Client-safe: the admin Bookings page builds its filter and paging links with this. */
export const BOOKINGS_PATH = "/admin-dashboard/bookings";

export type BookingFilter = { status: BookingStatus | null; unmatched: boolean };

export function bookingsHref(filter: BookingFilter, cursors: { upcoming?: string; past?: string } = {}) {
  const params = new URLSearchParams();
  if (filter.status) params.set("status", filter.status);
  if (filter.unmatched) params.set("unmatched", "1");
  if (cursors.upcoming) params.set("upcoming_after", cursors.upcoming);
  if (cursors.past) params.set("past_after", cursors.past);
  const query = params.toString();
  return query ? `${BOOKINGS_PATH}?${query}` : BOOKINGS_PATH;
}
