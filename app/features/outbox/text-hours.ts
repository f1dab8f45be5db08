import { BUSINESS_TIME_ZONE, parseBusinessDateTime } from "~/utils/business-time";

/** Texts are sent from 8 am to 8 pm business time only (the TCPA's quiet hours are 9 pm to 8 am). */
export const TEXT_HOURS = { from: 8, until: 20 } as const;

// Made once: building an Intl formatter costs far more than formatting with it.
const parts = new Intl.DateTimeFormat("en-CA", {
  timeZone: BUSINESS_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
});

function businessDayAndHour(at: Date) {
  const p = parts.formatToParts(at);
  const get = (type: string) => p.find((x) => x.type === type)?.value ?? "00";
  return { day: `${get("year")}-${get("month")}-${get("day")}`, hour: Number(get("hour")) };
}

/** The first moment from `now` on when a text may be sent: `now` itself within the hours. */
export function nextTextTime(now: Date): Date {
  const { day, hour } = businessDayAndHour(now);
  if (hour >= TEXT_HOURS.from && hour < TEXT_HOURS.until) return now;
  const from = `T${String(TEXT_HOURS.from).padStart(2, "0")}:00`;
  if (hour < TEXT_HOURS.from) return parseBusinessDateTime(`${day}${from}`)!;
  // After 8 pm: 8 am the next calendar day (noon UTC of that day is safely inside it).
  const next = businessDayAndHour(new Date(parseBusinessDateTime(`${day}T12:00`)!.getTime() + 24 * 3600_000)).day;
  return parseBusinessDateTime(`${next}${from}`)!;
}
