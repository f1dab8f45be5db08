import { TZDate } from "@date-fns/tz";

/**
 * Visit dates (services.service_date) are instants (timestamptz). Admins type them, and
 * customers read them, in the business's own time zone: Southern Nevada is on Pacific time,
 * whatever the server's or the browser's zone is.
 */
export const BUSINESS_TIME_ZONE = "America/Los_Angeles";

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant of a `datetime-local` value ("2025-03-01T10:30") read as a wall-clock time in
 * the business's time zone, or null when it is not a real date and time. A time skipped by the
 * spring-forward change (02:30) moves an hour on; one repeated at fall-back (01:30) is the first,
 * daylight-time one: Temporal's "compatible" choice, which TZDate makes.
 */
export function parseBusinessDateTime(value: string, timeZone = BUSINESS_TIME_ZONE): Date | null {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const second = Number(match[6] ?? 0);
  if (year < 2000 || year > 2100) return null;
  const check = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2025-02-30 over to March; such a value was never a real date.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  return new Date(new TZDate(year, month - 1, day, hour, minute, second, timeZone).getTime());
}

/** "Mar 1, 2025": formatted on the server so the browser renders the same text. */
// Formatters are made once: building an Intl formatter costs far more than formatting with it.
const businessDate = new Intl.DateTimeFormat("en-US", { timeZone: BUSINESS_TIME_ZONE, dateStyle: "medium" });
const businessDateTime = new Intl.DateTimeFormat("en-US", {
  timeZone: BUSINESS_TIME_ZONE,
  dateStyle: "medium",
  timeStyle: "short",
});

export function formatBusinessDate(date: Date | string) {
  return businessDate.format(new Date(date));
}

/** "Mar 1, 2025, 10:30 AM" in the business's time zone. */
export function formatBusinessDateTime(date: Date | string) {
  return businessDateTime.format(new Date(date)).replace(/\u202f/g, " ");
}
