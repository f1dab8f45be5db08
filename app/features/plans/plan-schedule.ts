import type { PlanWeekday, VisitType } from "../../../db/enums";
import { addDays } from "~/features/visits/visit-dates";
import { parseBusinessDateTime } from "~/utils/business-time";

/**
 * The calendar of a customer plan, as pure functions of days ("YYYY-MM-DD", business time) so that
 * the generator, the customer's page and the admin's page agree, and tests can fix the clock.
 * Rules: docs/decisions/090 (visits from plans) and 091 (closed days).
 */

export const WEEKDAY_NAMES: Record<PlanWeekday, string> = {
  1: "Monday",
  2: "Tuesday",
  3: "Wednesday",
  4: "Thursday",
  5: "Friday",
};

/** The visit type of a plan's visits, by its visits per week. */
export function planVisitType(visitsPerWeek: number): VisitType {
  if (visitsPerWeek >= 3) return "Thrice Weekly Service";
  return visitsPerWeek === 2 ? "Twice Weekly Service" : "Weekly Service";
}

/** ISO weekday of a day: Monday 1 ... Sunday 7. */
export function isoWeekday(day: string): number {
  const [y, m, d] = day.split("-").map(Number);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** "Tuesday and Thursday", "Monday, Wednesday and Friday". */
export function describeWeekdays(weekdays: readonly number[]): string {
  const names = [...weekdays].sort((a, b) => a - b).map((day) => WEEKDAY_NAMES[day as PlanWeekday] ?? String(day));
  return names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The plan's slots from `from` to `to` (both included): each day that is one of its weekdays. */
export function slotDays(weekdays: readonly number[], from: string, to: string): string[] {
  const days: string[] = [];
  const wanted = new Set(weekdays);
  for (let day = from; day <= to; day = addDays(day, 1)) {
    if (wanted.has(isoWeekday(day))) days.push(day);
  }
  return days;
}

/**
 * The day a slot's visit happens: the slot itself, or, when the business is closed that day, the
 * next weekday (Monday to Friday) that is not closed (decision 091). Null if none is found within
 * 31 days (a calendar closed for a month makes no visit rather than one a month late).
 */
export function serviceDayFor(slot: string, closedDays: ReadonlySet<string>): string | null {
  let day = slot;
  for (let step = 0; step <= 31; step += 1) {
    if (isoWeekday(day) <= 5 && !closedDays.has(day)) return day;
    day = addDays(day, 1);
  }
  return null;
}

/** The instant a plan visit on `day` starts: the first visit time, business time. */
export function visitStartsAt(day: string, firstVisitTime: string): Date {
  const start = parseBusinessDateTime(`${day}T${firstVisitTime}`);
  if (!start) throw new Error(`Not a day and time: ${day}T${firstVisitTime}`);
  return start;
}

/** Whether a visit starting at `startsAt` can still be changed by its customer at `now`. */
export function canChangeVisit(startsAt: Date, now: Date, changeNoticeHours: number): boolean {
  return startsAt.getTime() - now.getTime() >= changeNoticeHours * 3_600_000;
}

/** An "Undo skip" of a visit the customer skipped before pausing over its day (decision 092). */
export const PAUSED_VISIT_MESSAGE =
  "This visit falls within your pause. Resume your service first, then undo the skip.";

/** The refusal a customer reads when the change notice has passed (exact words: issue 25). */
export function changeNoticeMessage(changeNoticeHours: number): string {
  return `Visits can be changed up to ${changeNoticeHours} hours before they start.`;
}

/** What a plan's calendar reads: the plan's days and status, never its customer or prices. */
export type PlanCalendar = {
  weekdays: readonly number[];
  start_date: string;
  /** The first day the current weekdays apply (after "Change plan" from a date); null: start_date. */
  schedule_from?: string | null;
  status: "active" | "paused" | "cancelled";
  paused_from: string | null;
  paused_until: string | null;
  last_visit_date: string | null;
  /** Visits from this day on are skipped for an overdue payment (decision 104); null: not held. */
  payment_hold_from?: string | null;
};

/** The schedule rules the calendar needs, closed days as a set (built once per run). */
export type ScheduleRules = { firstVisitTime: string; closed: ReadonlySet<string> };

export function scheduleRules(rules: {
  firstVisitTime: string;
  closedDays: readonly { date: string }[];
}): ScheduleRules {
  return { firstVisitTime: rules.firstVisitTime, closed: new Set(rules.closedDays.map((day) => day.date)) };
}

/**
 * A visit the plan should have: its slot, the day it happens (moved off closed days) and when;
 * `overdue`: skipped for an overdue payment (decision 104), which wins over the customer's pause.
 */
export type PlannedVisit = { slot: string; day: string; startsAt: Date; paused: boolean; overdue: boolean };

/**
 * The visits a plan should have for its slots from `from` to `to` (days, both included): none
 * before its start date, none after its last visit day once cancelled; `paused` marks those whose
 * day falls in its pause (they exist, skipped, so the customer sees them as "Skipped").
 */
export function plannedVisits(plan: PlanCalendar, rules: ScheduleRules, from: string, to: string): PlannedVisit[] {
  const starts = plan.schedule_from && plan.schedule_from > plan.start_date ? plan.schedule_from : plan.start_date;
  const first = from < starts ? starts : from;
  const visits: PlannedVisit[] = [];
  for (const slot of slotDays(plan.weekdays, first, to)) {
    const day = serviceDayFor(slot, rules.closed);
    if (!day) continue;
    if (plan.status === "cancelled" && plan.last_visit_date !== null && day > plan.last_visit_date) continue;
    visits.push({
      slot,
      day,
      startsAt: visitStartsAt(day, rules.firstVisitTime),
      paused: isPausedOn(plan, day),
      overdue: isHeldForPaymentOn(plan, day),
    });
  }
  return visits;
}

/** Whether the plan is held for an overdue payment on this day (its visits then are skipped). */
export function isHeldForPaymentOn(plan: Pick<PlanCalendar, "status" | "payment_hold_from">, day: string) {
  return plan.status !== "cancelled" && !!plan.payment_hold_from && day >= plan.payment_hold_from;
}

/** How a visit the plan should have is stored: skipped for a payment or a pause, or scheduled. */
export function plannedVisitState(visit: Pick<PlannedVisit, "paused" | "overdue">) {
  if (visit.overdue) return { status: "skipped", skip_reason: "payment_overdue" } as const;
  if (visit.paused) return { status: "skipped", skip_reason: "paused" } as const;
  return { status: "scheduled", skip_reason: null } as const;
}

/** Whether the plan's pause covers this day (a visit on it is skipped by the pause). */
export function isPausedOn(plan: Pick<PlanCalendar, "status" | "paused_from" | "paused_until">, day: string) {
  return (
    plan.status === "paused" &&
    plan.paused_from !== null &&
    plan.paused_until !== null &&
    day >= plan.paused_from &&
    day <= plan.paused_until
  );
}
