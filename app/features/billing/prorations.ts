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

/**
 * What a change from `fromDay` makes each month owe: a month billed already at the old terms owes
 * the new terms' share of its days from the change on less the old terms' share of them; a month
 * the run has still to bill (it bills the plan as it now is) owes the old terms' share of its
 * days before the change less the new terms' share of them. Days before the plan starts count for
 * neither. Months with nothing to adjust are left out.
 */
export function changeAdjustments(input: {
  oldWeekdays: readonly number[];
  next: Terms;
  startDate: string;
  fromDay: string;
  rule: ProrationRule;
  months: readonly MonthToAdjust[];
}): { month: string; amountCents: number }[] {
  const adjustments: { month: string; amountCents: number }[] = [];
  for (const { month, billed, oldMonthlyCents } of input.months) {
    const old: Terms = { weekdays: input.oldWeekdays, monthlyCents: oldMonthlyCents };
    const last = lastDayOf(month);
    const from = billed ? maxDay(input.fromDay, input.startDate, month) : maxDay(input.startDate, month);
    const until = billed ? last : minDay(addDays(input.fromDay, -1), last);
    if (from > until) continue;
    const oldShare = shareOfMonth(old, month, from, until, input.rule);
    const newShare = shareOfMonth(input.next, month, from, until, input.rule);
    const amountCents = billed ? newShare - oldShare : oldShare - newShare;
    if (amountCents !== 0) adjustments.push({ month, amountCents });
  }
  return adjustments;
}

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
const minDay = (...days: string[]) => days.reduce((a, b) => (a < b ? a : b));
