import { getSiteSettings } from "~/content/content.server";
import { errorFields, log } from "~/utils/logger.server";

/**
 * The external scheduling calendar of the site settings (owner-edited in Sanity), or null
 * when the content cannot be read: the dashboard then says booking is unavailable instead of
 * failing as a whole.
 */
export async function getBookingCalendarUrl(): Promise<string | null> {
  try {
    const settings = await getSiteSettings();
    return settings.bookingCalendarUrl;
  } catch (error) {
    log.error("booking_calendar.unavailable", errorFields(error));
    return null;
  }
}

/**
 * The calendar link prefilled with the customer's name and e-mail. `name` and `email` are the
 * parameters Calendly reads; calendars that do not know them ignore them.
 */
export function prefilledCalendarUrl(calendarUrl: string, customer: { name: string | null; email: string }) {
  const url = new URL(calendarUrl);
  if (customer.name) url.searchParams.set("name", customer.name);
  url.searchParams.set("email", customer.email);
  return url.toString();
}
