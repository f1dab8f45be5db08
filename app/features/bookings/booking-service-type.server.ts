import { OTHER_SERVICE_TYPE } from "./booking-constants";
import { getSiteSettings } from "~/content/content.server";
import { errorFields, log } from "~/utils/logger.server";

/**
 * A calendar event type as the owner writes it and as the calendars send it: lower case, words
 * joined by hyphens. So "weekly-cleanup" in the site settings matches Cal.com's slug
 * `weekly-cleanup` and Calendly's event named "Weekly Cleanup".
 */
export function eventTypeKey(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export type ServiceTypeMapping = { eventType: string; serviceType: string }[];

/** The first key with a mapping wins; none gives "Other". */
export function serviceTypeFor(keys: string[], mapping: ServiceTypeMapping): string {
  const byKey = new Map(mapping.map((pair) => [eventTypeKey(pair.eventType), pair.serviceType]));
  for (const key of keys) {
    const found = byKey.get(eventTypeKey(key));
    if (found) return found;
  }
  return OTHER_SERVICE_TYPE;
}

/** The mapping from the site settings; when content cannot be read, every booking is "Other". */
export async function serviceTypeForEventType(keys: string[]): Promise<string> {
  try {
    const settings = await getSiteSettings();
    return serviceTypeFor(keys, settings.bookingServiceTypes ?? []);
  } catch (error) {
    log.error("booking.service_type_unavailable", errorFields(error));
    return OTHER_SERVICE_TYPE;
  }
}
