import {
  addOnAmountFor,
  estimateMonthlyPrice,
  formatMonthlyExtra,
  formatPrice,
  type AddOnTiers,
} from "~/content/pricing";
import type { AddOn, Price } from "~/content/types";

/**
 * The instant estimate of the quote form, shared by the browser (as the visitor picks a service
 * and a dog count) and the server (stored with the request, shown on the success screen and in
 * the inbox), so that both always agree. Every amount comes from content.
 *
 * - A monthly plan: the plan's price plus the multi-dog add-on tier for the dog count
 *   ("$104/month"). Stored in cents.
 * - A one-time, per-bin or "from" price: the plan's price with its unit ("$N one-time"); the
 *   add-on is a monthly amount for subscriptions, so it does not apply. Not stored in cents
 *   (estimate_cents is the monthly figure only), the label says it all.
 * - A service without a plan (commercial properties): no estimate; the team quotes it.
 */
export type QuoteEstimate = {
  /** The monthly estimate in cents; null when the plan is not billed monthly. */
  cents: number | null;
  /** "$N/month", "$N one-time", "$N+". */
  label: string;
  /** How the figure is made up, e.g. "$N/month plan +$M/month Multi-Dog Add-On"; null if it is just the plan price. */
  breakdown: string | null;
};

/** "4+" counts as 4 dogs; anything else that is not a whole number of dogs is null. */
export function dogCountFrom(value: string | null | undefined): number | null {
  if (!value) return null;
  const match = /^([1-9]\d?)\+?$/.exec(value);
  return match ? Number(match[1]) : null;
}

/** What the estimate reads of a service option and an add-on: all the browser script is given. */
export type EstimateServiceOption = { value: string; plan: { price: Price } | null };
export type EstimateAddOn = Pick<AddOn, "name"> & AddOnTiers;

export function estimateQuote(
  options: readonly EstimateServiceOption[],
  addOns: readonly EstimateAddOn[],
  service: string | null | undefined,
  dogs: string | null | undefined,
): QuoteEstimate | null {
  const plan = options.find((option) => option.value === service)?.plan;
  if (!plan) return null;
  const price = plan.price;
  if (price.unit !== "month") return { cents: null, label: formatPrice(price), breakdown: null };

  // Until a dog count is picked, the plan's own price (it includes one dog).
  const count = dogCountFrom(dogs) ?? 1;
  const monthly = estimateMonthlyPrice(price, count, addOns);
  if (monthly === null) return null;
  const extras = addOns
    .map((addOn) => ({ name: addOn.name, amount: addOnAmountFor(addOn, count) }))
    .filter((extra) => extra.amount > 0);
  return {
    cents: Math.round(monthly * 100),
    label: formatPrice({ amount: monthly, unit: "month" }),
    breakdown:
      extras.length > 0
        ? [
            `${formatPrice(price)} plan`,
            ...extras.map((extra) => `${formatMonthlyExtra(extra.amount)} ${extra.name}`),
          ].join(" ")
        : null,
  };
}
