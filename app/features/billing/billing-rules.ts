import { slotDays } from "~/features/plans/plan-schedule";
import { addDays } from "~/features/visits/visit-dates";

/**
 * The arithmetic of billing (docs/decisions/100), pure so that it is tested alone: which month a
 * billing day invoices, the first month's share, a visit's rate. Money is integer cents; every
 * division rounds once, half up, on integers.
 */

/** The first day of the month `day` is in. */
export function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** The first day of the month `months` after the month starting `month`. */
export function addMonths(month: string, months: number): string {
  const [y, m] = month.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1 + months, 1));
  return date.toISOString().slice(0, 10);
}

/** The last day of the month starting `month`. */
export function lastDayOf(month: string): string {
  return addDays(addMonths(month, 1), -1);
}

/**
 * The day the invoices for the month starting `period` are made: with billing day 1, that month's
 * first day; with a later billing day, that day of the month before (the month ahead is billed).
 */
export function billingDateOf(period: string, billingDay: number): string {
  if (billingDay <= 1) return period;
  return `${addMonths(period, -1).slice(0, 8)}${String(billingDay).padStart(2, "0")}`;
}

/** The month whose invoices are due by `today`: the latest one whose billing date has come. */
export function currentPeriod(today: string, billingDay: number): string {
  const next = addMonths(monthOf(today), 1);
  return billingDateOf(next, billingDay) <= today ? next : monthOf(today);
}

/**
 * The days whose visits an invoice settles: from the previous billing date to this one
 * (excluded). Skips and one-time services of those days are on this invoice; by its billing date
 * they have all happened.
 */
export function settlementWindow(period: string, billingDay: number): { from: string; until: string } {
  return { from: billingDateOf(addMonths(period, -1), billingDay), until: billingDateOf(period, billingDay) };
}

/** a × b ÷ c, rounded half up, for non-negative integers. */
export function mulDivRound(a: number, b: number, c: number): number {
  return Math.floor((2 * a * b + c) / (2 * c));
}

/** One visit of a plan: monthly price × 12 months ÷ 52 weeks ÷ visits a week. */
export function perVisitCents(monthlyCents: number, visitsPerWeek: number): number {
  return mulDivRound(monthlyCents, 12, 52 * visitsPerWeek);
}

/**
 * The credit for one skipped visit of a month that was billed `billed` for `slots` visits: the
 * month's price per visit, never more than what is left of the month's bill after the credits
 * already given (so a month with every visit skipped credits exactly what it billed).
 */
export function skipCreditCents(month: { billed: number; credited: number }, slots: number): number {
  const left = Math.max(0, month.billed - month.credited);
  if (slots <= 0) return left;
  return Math.min(left, mulDivRound(month.billed, 1, slots));
}

/**
 * The plan's service days in the month (its weekdays), from `from` on (and up to `until`): the one
 * home of "slots in a month" for the first month's share, a skip's credit and a change's proration.
 */
export function serviceDaysInMonth(
  weekdays: readonly number[],
  period: string,
  from = period,
  until = lastDayOf(period),
): number {
  const start = from > period ? from : period;
  const last = lastDayOf(period);
  const end = until < last ? until : last;
  if (start > end) return 0;
  return slotDays(weekdays, start, end).length;
}

export type MonthCharge = { kind: "plan_month" | "prorated_month"; amountCents: number; visits: number; of: number };

/**
 * What a plan owes for the month starting `period`: the whole month, or, in the month it starts
 * (when the owner prorates), the share of the month's service days left from its start. Null
 * when it has no service day in that month.
 */
export function monthCharge(
  plan: { weekdays: readonly number[]; start_date: string },
  period: string,
  monthlyCents: number,
  prorate: boolean,
): MonthCharge | null {
  const last = lastDayOf(period);
  if (plan.start_date > last) return null;
  const all = serviceDaysInMonth(plan.weekdays, period);
  const left = serviceDaysInMonth(plan.weekdays, period, plan.start_date);
  if (left === 0 || all === 0) return null;
  if (!prorate || left === all) return { kind: "plan_month", amountCents: monthlyCents, visits: all, of: all };
  return { kind: "prorated_month", amountCents: mulDivRound(monthlyCents, left, all), visits: left, of: all };
}

/** Whole dollars to cents (Sanity prices are dollar amounts with at most two decimals). */
export function dollarsToCents(amount: number): number {
  return Math.round(amount * 100);
}

/** "Desert Dash" → "desert-dash", "Sanitize & Deodorize" → "sanitize-deodorize": a catalogue slug. */
export function visitTypeSlug(visitType: string): string {
  return visitType
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
