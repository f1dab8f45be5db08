import type { AddOnTiers } from "~/content/pricing";
import type { Price, SignUpSettings } from "~/content/types";
import { dollarsToCents, monthCharge, monthOf, type MonthCharge } from "~/features/billing/billing-rules";
import { cataloguePrice, totalCents, type LockedPrice } from "~/features/billing/plan-prices";

/**
 * What a sign-up at /start costs, pure (docs/decisions/129): the monthly price the plan will lock
 * (decision 116, the same `cataloguePrice` the plan workflow locks), the initial clean by the
 * yard's last clean (Sanity), and today's charge: the initial clean plus the first month as the
 * billing run bills it (`monthCharge`, decision 117). Never from anything the browser posted.
 * Coupons and referral credits (issue 37 items 2-3) belong in `discounts` of the quote when they
 * come: the summary and the invoice read the quote, so they will show them both.
 */

export type SignUpPlanCard = { _id: string; name: string; visitsPerWeek: number | null; price: Price };

export type SignUpQuote = {
  monthly: LockedPrice;
  monthlyCents: number;
  initialCleanCents: number;
  initialCleanLabel: string;
  /** The first month's line as the billing run would bill it. */
  firstMonth: MonthCharge;
  /** The first month billed: the month of the first visit. */
  firstPeriod: string;
  todayCents: number;
};

/** The catalogue plans /start offers: subscriptions with a monthly price. */
export function signUpPlans<T extends SignUpPlanCard>(catalogue: readonly T[]): T[] {
  return catalogue.filter(
    (card) => card.visitsPerWeek !== null && card.visitsPerWeek >= 1 && card.price.unit === "month",
  );
}

/** The plan's monthly price for this many dogs, or null when the plan is not offered. */
export function signUpMonthlyPrice(
  card: SignUpPlanCard | undefined,
  dogCount: number,
  addOns: readonly AddOnTiers[],
): LockedPrice | null {
  if (!card || signUpPlans([card]).length === 0) return null;
  return cataloguePrice(card, dogCount, addOns);
}

export function initialCleanFor(settings: Pick<SignUpSettings, "initialCleans">, answer: string) {
  return settings.initialCleans.find((clean) => clean.answer === answer) ?? null;
}

/** The whole quote for these answers; null when an answer no longer matches the catalogue. */
export function quoteSignUp(input: {
  card: SignUpPlanCard | undefined;
  dogCount: number;
  addOns: readonly AddOnTiers[];
  settings: Pick<SignUpSettings, "initialCleans">;
  lastCleaned: string;
  weekdays: readonly number[];
  startDate: string;
  prorateFirstMonth: boolean;
}): SignUpQuote | null {
  const monthly = signUpMonthlyPrice(input.card, input.dogCount, input.addOns);
  const clean = initialCleanFor(input.settings, input.lastCleaned);
  if (!monthly || !clean) return null;
  const monthlyCents = totalCents(monthly);
  const firstPeriod = monthOf(input.startDate);
  const firstMonth = monthCharge(
    { weekdays: input.weekdays, start_date: input.startDate },
    firstPeriod,
    monthlyCents,
    input.prorateFirstMonth,
  );
  if (!firstMonth) return null;
  const initialCleanCents = dollarsToCents(clean.amount);
  return {
    monthly,
    monthlyCents,
    initialCleanCents,
    initialCleanLabel: clean.label,
    firstMonth,
    firstPeriod,
    todayCents: initialCleanCents + firstMonth.amountCents,
  };
}
