import { createCustomerReference } from "./customer-reference.server";
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

/** Which calendar a link opens, by its host; a self-hosted Cal.com has a host of its own. */
export function calendarProviderOf(calendarUrl: string): "cal_com" | "calendly" | "unknown" {
  const host = new URL(calendarUrl).hostname.toLowerCase();
  if (host === "calendly.com" || host.endsWith(".calendly.com")) return "calendly";
  if (host === "cal.com" || host.endsWith(".cal.com")) return "cal_com";
  return "unknown";
}

/**
 * The calendar link prefilled with the customer's name and e-mail (both calendars read `name`
 * and `email`) and the signed customer reference that says who booked: Cal.com returns
 * `metadata[customer]` as `payload.metadata.customer`, Calendly returns `utm_content` as
 * `payload.tracking.utm_content`. A calendar on a host of its own gets both.
 */
export function bookingCalendarLink(
  calendarUrl: string,
  customer: { id: string; name: string | null; email: string },
  now = Date.now(),
) {
  const url = new URL(calendarUrl);
  if (customer.name) url.searchParams.set("name", customer.name);
  url.searchParams.set("email", customer.email);
  const reference = createCustomerReference(customer.id, now);
  const provider = calendarProviderOf(calendarUrl);
  if (provider !== "calendly") url.searchParams.set("metadata[customer]", reference);
  if (provider !== "cal_com") url.searchParams.set("utm_content", reference);
  return url.toString();
}
