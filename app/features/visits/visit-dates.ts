import { BUSINESS_TIME_ZONE, parseBusinessDateTime } from "~/utils/business-time";

/** Calendar days in the business's time zone, as "YYYY-MM-DD" (the value of a date input). */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

// Formatters are made once (building one costs far more than formatting with it).
// en-CA formats as YYYY-MM-DD.
const businessDay = new Intl.DateTimeFormat("en-CA", { timeZone: BUSINESS_TIME_ZONE });
const businessInputParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: BUSINESS_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});

export function businessToday(now = new Date()) {
  return businessDay.format(now);
}

/** A real calendar day written YYYY-MM-DD (a date input's value; "2027-02-30" is not one). */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function addDays(day: string, days: number) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The instant a business day starts, or null for anything that is not a real day. */
export function startOfBusinessDay(day: string): Date | null {
  if (!DAY.test(day)) return null;
  return parseBusinessDateTime(`${day}T00:00`);
}

/** The instant today began in the business's time zone (midnight in Las Vegas). */
export function startOfBusinessToday(now = new Date()): Date {
  return parseBusinessDateTime(`${businessToday(now)}T00:00`)!;
}

/** "2025-03-01T10:30" in the business's time zone: the value of a datetime-local input. */
export function toBusinessInputValue(date: Date | string) {
  const parts = businessInputParts.formatToParts(new Date(date));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}`;
}

/** Keyset cursors in URLs: "<ISO instant>~<uuid>". */
export function encodeCursor(cursor: { date: Date | string; id: string }) {
  return `${new Date(cursor.date).toISOString()}~${cursor.id}`;
}

export function decodeCursor(value: string | null): { date: Date; id: string } | null {
  if (!value) return null;
  const [iso, id] = value.split("~");
  const date = new Date(iso ?? "");
  if (Number.isNaN(date.getTime()) || !/^[0-9a-f-]{36}$/i.test(id ?? "")) return null;
  return { date, id };
}
