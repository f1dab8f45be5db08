import { addDays } from "~/features/visits/visit-dates";
import { lastDayOf, monthOf, mulDivRound, serviceDaysInMonth } from "./billing-rules";

/**
 * Prorations of a plan change (docs/decisions/117), pure: what part of a month's price each of
 * the old and the new terms covers, and what a change makes each month owe more or less than it
 * was (or will be) billed. Integer cents; each share rounds once, half up.
 */

/** The terms a month is billed by: the plan's service days and its monthly price in cents. */
export type Terms = { weekdays: readonly number[]; monthlyCents: number };

/**
 * "slots": a change that applies at once is billed by the visits (slots) each plan covers in the
 * month, as a skip is credited; "days": a dated change ("from the 15th") by the calendar days.
 */
export type ProrationRule = "slots" | "days";

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;
const daysIn = (from: string, until: string) => dayNumber(until) - dayNumber(from) + 1;

/** The share of the month's price under `terms` that its days from `from` to `until` (inclusive) cover. */
export function shareOfMonth(terms: Terms, month: string, from: string, until: string, rule: ProrationRule): number {
  const last = lastDayOf(month);
  const start = from > month ? from : month;
  const end = until < last ? until : last;
  if (start > end || terms.monthlyCents <= 0) return 0;
  if (rule === "days") return mulDivRound(terms.monthlyCents, daysIn(start, end), daysIn(month, last));
  const all = serviceDaysInMonth(terms.weekdays, month);
  if (all === 0) return 0;
  return mulDivRound(terms.monthlyCents, serviceDaysInMonth(terms.weekdays, month, start, end), all);
}

export type MonthToAdjust = {
  month: string;
  /** Billed already (at the old terms); otherwise the billing run will bill it at the new ones. */
  billed: boolean;
  /** The old terms' price for that month (a new catalogue price may apply from a month on). */
  oldMonthlyCents: number;
};

/** The months a change from `fromDay` made on `today` may touch: this month to the change's, and any billed after. */
export function monthsTouched(today: string, fromDay: string, lastBilled: string | null): string[] {
  const first = monthOf(today < fromDay ? today : fromDay);
  let last = monthOf(fromDay);
  if (lastBilled && lastBilled > last) last = lastBilled;
  const months: string[] = [];
  for (let month = first; month <= last; month = monthOf(addDays(lastDayOf(month), 1))) months.push(month);
  return months;
}

const maxDay = (...days: string[]) => days.reduce((a, b) => (a > b ? a : b));

/** A change as a month's history keeps it: the day it applies from, the terms before it, its rule. */
export type PastChange = { fromDay: string; old: Terms; rule: ProrationRule };

/**
 * What a month costs under a history of changes (oldest first) ending in `latest` terms: each run
 * of days under one set of terms is its terms' share of the month, prorated by the rule of the
 * change that ends it within the month (else of the change that starts it), each rounded once.
 * A later change decides the days from its own day on, whatever came before. Days before the
 * plan's start count for none.
 */
export function monthUnderChanges(
  month: string,
  startDate: string,
  history: readonly PastChange[],
  latest: Terms,
): number {
  const last = lastDayOf(month);
  const first = maxDay(startDate, month);
  if (first > last) return 0;
  // Which change (index) sets each day's terms; -1: the terms before any change.
  const setter = (day: string) => {
    let found = -1;
    history.forEach((change, i) => {
      if (change.fromDay <= day) found = i;
    });
    return found;
  };
  // The terms a change set are those the next change found (its old ones), the last's the latest.
  const termsOf = (index: number): Terms => (index + 1 < history.length ? history[index + 1].old : latest);
  let cents = 0;
  let runStart = first;
  let runSetter = setter(first);
  for (let day = first; day <= last; day = addDays(day, 1)) {
    const next = day === last ? null : addDays(day, 1);
    const nextSetter = next === null ? null : setter(next);
    if (nextSetter === runSetter) continue;
    const ender = nextSetter === null ? null : history[nextSetter];
    const starter = runSetter >= 0 && history[runSetter].fromDay >= month ? history[runSetter] : null;
    const rule = ender?.rule ?? starter?.rule ?? "slots";
    cents += shareOfMonth(termsOf(runSetter), month, runStart, day, rule);
    if (next !== null) {
      runStart = next;
      runSetter = nextSetter!;
    }
  }
  return cents;
}

/**
 * The adjustments a change makes each month owe, as differences of cumulative rounded totals
 * (decision 120): after every change a month has cost, with its adjustments, exactly what its
 * history's runs of days cost at each terms' price (monthUnderChanges), so two changes in a month
 * never drift by a cent each. A month billed already was billed as the history before the change
 * priced it; a month still to be billed will be billed at the latest terms by the visits from the
 * plan's start, so its adjustments make up the difference to its history.
 */
export function cumulativeAdjustments(input: {
  history: readonly PastChange[];
  /** The terms before this change; their price per month is the month's oldMonthlyCents. */
  currentWeekdays: readonly number[];
  next: Terms;
  startDate: string;
  fromDay: string;
  rule: ProrationRule;
  months: readonly MonthToAdjust[];
}): { month: string; amountCents: number }[] {
  const adjustments: { month: string; amountCents: number }[] = [];
  for (const { month, billed, oldMonthlyCents } of input.months) {
    const current: Terms = { weekdays: input.currentWeekdays, monthlyCents: oldMonthlyCents };
    const history = input.history;
    const before = monthUnderChanges(month, input.startDate, history, current);
    const withChange = [...history, { fromDay: input.fromDay, old: current, rule: input.rule }];
    const after = monthUnderChanges(month, input.startDate, withChange, input.next);
    const planned = (terms: Terms) => shareOfMonth(terms, month, input.startDate, lastDayOf(month), "slots");
    const amountCents = billed ? after - before : after - planned(input.next) - (before - planned(current));
    if (amountCents !== 0) adjustments.push({ month, amountCents });
  }
  return adjustments;
}
