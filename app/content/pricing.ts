import type { AddOn, Price } from "./types";

/**
 * Price display and the quote estimate. No server code here: the quote form uses it in the
 * browser, and the pages, the structured data and the estimate all go through these functions.
 */

// Made once: a new Intl.NumberFormat per price was 4.5% of a page render.
const wholeDollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});
const dollarsAndCents = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

function dollars(amount: number): string {
  return (Number.isInteger(amount) ? wholeDollars : dollarsAndCents).format(amount);
}

/** "$N/month", "$N one-time", "$N per bin", "$N+". */
export function formatPrice(price: Price): string {
  const amount = dollars(price.amount);
  switch (price.unit) {
    case "month":
      return `${amount}/month`;
    case "one-time":
      return `${amount} one-time`;
    case "per-bin":
      return `${amount} per bin`;
    case "from":
      return `${amount}+`;
  }
}

/** The price as a screen reader should say it: "$N+" reads badly. */
export function describePrice(price: Price): string {
  const amount = dollars(price.amount);
  switch (price.unit) {
    case "month":
      return `${amount} per month`;
    case "one-time":
      return `${amount}, one-time`;
    case "per-bin":
      return `${amount} per bin`;
    case "from":
      return `from ${amount}`;
  }
}

/** What the estimate reads of an add-on (the quote form's browser script gets only this). */
export type AddOnTiers = { tiers: readonly Pick<AddOn["tiers"][number], "minDogs" | "monthlyAmount">[] };

/** The tier of an add-on that applies to this many dogs: the highest threshold at or below it. */
export function addOnAmountFor(addOn: AddOnTiers, dogs: number): number {
  let amount = 0;
  let threshold = 0;
  for (const tier of addOn.tiers) {
    if (tier.minDogs <= dogs && tier.minDogs > threshold) {
      threshold = tier.minDogs;
      amount = tier.monthlyAmount;
    }
  }
  return amount;
}

/**
 * Monthly estimate for a subscription: the plan's price plus each add-on's tier for the dogs.
 * Null when the plan is not billed monthly (one-time visits have no monthly estimate) or the
 * dog count is not a positive whole number.
 */
export function estimateMonthlyPrice(price: Price, dogs: number, addOns: readonly AddOnTiers[]): number | null {
  if (price.unit !== "month" || !Number.isInteger(dogs) || dogs < 1) return null;
  const extras = addOns.reduce((sum, addOn) => sum + addOnAmountFor(addOn, dogs), 0);
  return Math.round((price.amount + extras) * 100) / 100;
}

/** "2 dogs", "3+ dogs", "2–3 dogs": the dog counts a tier covers, given all tiers of its add-on. */
export function describeTier(addOn: Pick<AddOn, "tiers">, minDogs: number): string {
  const next = addOn.tiers
    .map((tier) => tier.minDogs)
    .filter((count) => count > minDogs)
    .sort((a, b) => a - b)[0];
  if (next === undefined) return `${minDogs}+ dogs`;
  if (next === minDogs + 1) return `${minDogs} dogs`;
  return `${minDogs}–${next - 1} dogs`;
}

/** "+$15/month". */
export function formatMonthlyExtra(amount: number): string {
  return `+${dollars(amount)}/month`;
}
