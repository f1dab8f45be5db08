import { monthCharge, monthOf, mulDivRound, serviceDaysInMonth, skipCreditCents } from "./billing-rules";
import { priceForMonth, totalCents, type PlanPriceColumns } from "./plan-prices";
import type { Terms } from "./prorations";

/**
 * A visit's credit (docs/decisions/113, 115), the one home of the rule for every visit the
 * customer does not get and is owed back: what its month was billed ÷ that month's visits, never
 * more than what is left of that month's bill after the credits already given. The billing run
 * puts these credits on the next invoice; a cancellation, with no next invoice, on one credit note.
 * Pure, so that the run, the cancellation and its preview compute the same cents.
 */

/**
 * Why the visit is credited:
 *  - skipped: by the customer, an admin for them, or a pause; only with the change notice;
 *  - cancelled_by_us: an admin's "Cancel Visit", or a closed day with no open weekday to move to;
 *  - weather: missed for weather (no return visit made);
 *  - held: skipped while the plan was held for an overdue payment (decision 115's rule);
 *  - plan_cancelled: a visit (or slot) of a month already billed that a cancellation ends; only
 *    with the change notice, as a skip.
 * The business's own (cancelled_by_us, weather, held) are credited whatever the notice.
 */
export type CreditCause = "skipped" | "cancelled_by_us" | "weather" | "held" | "plan_cancelled";

export type CreditCandidate = {
  /** The visit; null for a slot beyond the visits made (a cancellation past the horizon). */
  visitId: string | null;
  /** The plan's service day it stands for ("YYYY-MM-DD"): its month is the month credited. */
  slot: string;
  cause: CreditCause;
  /** When the visit was to start. */
  startsAt: Date;
  /** When it was skipped or cancelled (the notice is counted from it). */
  changedAt: Date;
};

export type MonthBilled = {
  plan_id: string;
  month: string;
  /** What the plan's invoice for the month charged for it. */
  billed: number;
  /** The visit credits already given for that month (invoices and credit notes). */
  credited: number;
};

export type CreditedVisit = CreditCandidate & { month: string; amountCents: number; description: string };

export type CreditPlan = { id: string; weekdays: readonly number[]; start_date: string };

export type CreditContext = {
  noticeHours: number;
  /** The owner's "credit skipped visits" setting: off, only the business's own are credited. */
  creditSkips: boolean;
  /** What the plan was billed for a month and credited so far; null: not billed, nothing to give. */
  monthBilled: (month: string) => MonthBilled | null;
  /**
   * The terms the plan was billed by on a day, when a plan change touched its month (decision
   * 117; termsOnFrom); null or absent: the month was billed as the plan is.
   */
  termsOn?: (day: string) => Terms | null;
};

/** A visit as the credit queries read it (listVisitsToCredit). */
export type CreditableVisit = {
  id: string;
  plan_slot: string;
  status: string;
  skip_reason: string | null;
  missed_reason: string | null;
  service_date: Date;
  plan_left_at: Date | null;
  changed_at: Date;
  closed_day: boolean;
  returned: boolean;
  credited: boolean;
};

/**
 * Why a visit that did not happen is owed back, if it is: a skip (a payment hold's apart), the
 * business's cancellation (an admin's "Cancel Visit" takes the visit off its plan; a closed day's
 * says so in its history), a weather miss with no return visit. A cancellation by a plan change
 * or by the plan's own cancellation, a locked gate or a dog in the yard (the Terms' denied
 * access) are not; nor a visit credited already.
 */
export function candidateOf(visit: CreditableVisit): CreditCandidate | null {
  if (visit.credited) return null;
  const base = { visitId: visit.id, slot: visit.plan_slot, startsAt: visit.service_date, changedAt: visit.changed_at };
  if (visit.status === "skipped") {
    return { ...base, cause: visit.skip_reason === "payment_overdue" ? "held" : "skipped" };
  }
  if (visit.status === "cancelled" && (visit.plan_left_at !== null || visit.closed_day)) {
    return { ...base, cause: "cancelled_by_us" };
  }
  if (visit.status === "missed" && visit.missed_reason === "weather" && !visit.returned) {
    return { ...base, cause: "weather" };
  }
  return null;
}

/** Whether the notice the Terms ask for was given (a skip's, a cancellation's); the business's own need none. */
export function creditedForNotice(candidate: CreditCandidate, noticeHours: number): boolean {
  if (candidate.cause !== "skipped" && candidate.cause !== "plan_cancelled") return true;
  return candidate.startsAt.getTime() - candidate.changedAt.getTime() >= noticeHours * 3_600_000;
}

/**
 * The credits of these visits of one plan, in slot order: each at its month's rate, a month's
 * credits never above its bill. The months passed in are counted on (their `credited` grows), so
 * one context serves a whole invoice or credit note.
 */
export function creditVisits(
  plan: CreditPlan,
  candidates: readonly CreditCandidate[],
  context: CreditContext,
): CreditedVisit[] {
  const credited: CreditedVisit[] = [];
  const bySlot = [...candidates].sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0));
  for (const candidate of bySlot) {
    if (candidate.cause === "skipped" && !context.creditSkips) continue;
    if (!creditedForNotice(candidate, context.noticeHours)) continue;
    const month = monthOf(candidate.slot);
    const billing = context.monthBilled(month);
    if (!billing) continue;
    const inForce = context.termsOn?.(candidate.slot) ?? null;
    const cents = inForce
      ? Math.min(Math.max(0, billing.billed - billing.credited), visitRate(inForce, month))
      : skipCreditCents(billing, serviceDaysInMonth(plan.weekdays, month, plan.start_date));
    if (cents <= 0) continue;
    billing.credited += cents;
    credited.push({ ...candidate, month, amountCents: cents, description: creditText(candidate) });
  }
  return credited;
}

/**
 * What the plan was billed for a month, from the months read (`known`, counted on), else: a month
 * before billing began here (the owner billed it by hand) counts as billed at the plan's price; a
 * later month without an invoice was not billed, so it has nothing to give back.
 */
export function monthBilledFrom(
  known: Map<string, MonthBilled>,
  plan: CreditPlan,
  assumed: { firstInvoicedMonth: string | null; monthlyCents: number; prorateFirstMonth: boolean },
): (month: string) => MonthBilled | null {
  return (month) => {
    const found = known.get(month);
    if (found) return found;
    if (assumed.firstInvoicedMonth !== null && month >= assumed.firstInvoicedMonth) return null;
    const charge = monthCharge(plan, month, assumed.monthlyCents, assumed.prorateFirstMonth);
    const byHand = { plan_id: plan.id, month, billed: charge?.amountCents ?? 0, credited: 0 };
    known.set(month, byHand);
    return byHand;
  };
}

/** A plan change as the credit reads it: the day it applies from, and the terms before it. */
export type TermsChange = { from_day: string; old_weekdays: readonly number[]; old_monthly_cents: number | null };

/**
 * The terms (service days, monthly price) a plan was billed by on a day, when a change touched
 * that day's month (decision 117): those before the first change from a later day, else the
 * plan's as it is. Null when no change applies from after the month's first day: the month was
 * billed as the plan is, and the rule of decision 113 applies unchanged. `changes` oldest first.
 */
export function termsOnFrom(
  changes: readonly TermsChange[],
  plan: { weekdays: readonly number[] } & PlanPriceColumns,
): (day: string) => Terms | null {
  const monthlyOf = (month: string) => {
    const price = priceForMonth(plan, month);
    return price ? totalCents(price) : 0;
  };
  return (day) => {
    const month = monthOf(day);
    if (!changes.some((change) => change.from_day > month)) return null;
    const before = changes.find((change) => change.from_day > day);
    if (!before) return { weekdays: plan.weekdays, monthlyCents: monthlyOf(month) };
    return { weekdays: before.old_weekdays, monthlyCents: before.old_monthly_cents ?? monthlyOf(month) };
  };
}

/** One visit's rate under these terms: their monthly price ÷ their slots in the month. */
function visitRate(terms: Terms, month: string): number {
  const slots = serviceDaysInMonth(terms.weekdays, month);
  return slots > 0 ? mulDivRound(terms.monthlyCents, 1, slots) : 0;
}

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", timeZone: "UTC" });

/** "March 17" for "2027-03-17". */
export function dayName(day: string): string {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}

const CAUSE_WORDS: Record<CreditCause, string> = {
  skipped: "skipped with notice",
  cancelled_by_us: "cancelled by us",
  weather: "missed for weather",
  held: "held for payment",
  plan_cancelled: "cancelled with the plan",
};

/** The line's words, as the skip's: "Credit: visit of March 17 cancelled by us". */
export function creditText(candidate: Pick<CreditCandidate, "slot" | "cause">): string {
  return `Credit: visit of ${dayName(candidate.slot)} ${CAUSE_WORDS[candidate.cause]}`;
}
