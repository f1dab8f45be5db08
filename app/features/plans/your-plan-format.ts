import type { SkipReason } from "../../../db/enums";
import { BUSINESS_TIME_ZONE } from "~/utils/business-time";

/**
 * The words of "Your Plan" that the page and its tests share (client-safe): how a visit's day
 * and a plan's day read, and why a visit is skipped.
 */

// Made once: building an Intl formatter costs far more than formatting with it.
const visitDay = new Intl.DateTimeFormat("en-US", {
  timeZone: BUSINESS_TIME_ZONE,
  weekday: "long",
  month: "short",
  day: "numeric",
  year: "numeric",
});
const visitTime = new Intl.DateTimeFormat("en-US", { timeZone: BUSINESS_TIME_ZONE, timeStyle: "short" });
const calendarDay = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "long",
  month: "short",
  day: "numeric",
  year: "numeric",
});

/** "Tuesday, Dec 1, 2026": the business day an instant falls on. */
export function formatVisitDay(startsAt: Date | string): string {
  return visitDay.format(new Date(startsAt));
}

/** "8:00 AM", business time. */
export function formatVisitTime(startsAt: Date | string): string {
  return visitTime.format(new Date(startsAt)).replace(/\u202f/g, " ");
}

/** "Tuesday, Dec 1, 2026" for a day ("YYYY-MM-DD", already a business day). */
export function formatPlanDay(day: string): string {
  return calendarDay.format(new Date(`${day}T12:00:00Z`));
}

/** Why a visit is skipped, as the customer reads it. */
export const SKIP_REASON_TEXT: Record<SkipReason, string> = {
  customer: "Skipped by you",
  paused: "Paused by customer",
  payment_overdue: "Payment overdue",
  admin: "Skipped by our team",
};
