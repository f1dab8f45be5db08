/**
 * Visit dates (services.service_date) are instants (timestamptz). Admins type them, and
 * customers read them, in the business's own time zone: Southern Nevada is on Pacific time,
 * whatever the server's or the browser's zone is.
 */
export const BUSINESS_TIME_ZONE = "America/Los_Angeles";

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

// One formatter per time zone, made on first use: building an Intl formatter costs far more
// than formatting with it, and every visit list reads a day's start twice per call.
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
function offsetFormatter(timeZone: string) {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string) {
  const parts = offsetFormatter(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant of a `datetime-local` value ("2025-03-01T10:30") read as a wall-clock time in
 * the business's time zone, or null when it is not a real date and time.
 */
export function parseBusinessDateTime(value: string, timeZone = BUSINESS_TIME_ZONE): Date | null {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const second = Number(match[6] ?? 0);
  if (year < 2000 || year > 2100) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  // Date.UTC rolls 2025-02-30 over to March; such a value was never a real date.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // Two passes settle the offset across a daylight-saving change.
  let instant = wall - zoneOffsetMs(wall, timeZone);
  instant = wall - zoneOffsetMs(instant, timeZone);
  return new Date(instant);
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
