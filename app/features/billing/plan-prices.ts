import { addMonths, dollarsToCents, monthOf } from "./billing-rules";
import { addOnAmountFor, formatPrice, type AddOnTiers } from "~/content/pricing";
import type { Price } from "~/content/types";
import { addDays } from "~/features/visits/visit-dates";

/**
 * Prices locked on the customer plan (docs/decisions/116), pure: what the catalogue asks for a
 * plan today, what the plan is billed for a month, and the first day a new price may apply.
 */

/** A monthly price as the plan stores it: the catalogue plan's price and its add-ons, in cents. */
export type LockedPrice = { priceCents: number; addOnCents: number };

/** The columns of customer_plans that hold its price. */
export type PlanPriceColumns = {
  price_cents: number | null;
  add_on_cents: number | null;
  pending_price_cents: number | null;
  pending_add_on_cents: number | null;
  pending_price_from: string | null;
};

/**
 * What the catalogue asks today for a plan of this catalogue plan and this many dogs; null when
 * the catalogue plan is gone or is not billed monthly.
 */
export function cataloguePrice(
  card: { price: Price } | undefined,
  dogCount: number,
  addOns: readonly AddOnTiers[],
): LockedPrice | null {
  if (!card || card.price.unit !== "month" || !Number.isInteger(dogCount) || dogCount < 1) return null;
  const extras = addOns.reduce((sum, addOn) => sum + dollarsToCents(addOnAmountFor(addOn, dogCount)), 0);
  return { priceCents: dollarsToCents(card.price.amount), addOnCents: extras };
}

export const totalCents = (price: LockedPrice) => price.priceCents + price.addOnCents;

export function samePrice(a: LockedPrice | null, b: LockedPrice | null): boolean {
  return a === b || (a !== null && b !== null && a.priceCents === b.priceCents && a.addOnCents === b.addOnCents);
}

/** The plan's locked price now; null while it has none (before the billing run locked it). */
export function lockedPrice(plan: PlanPriceColumns): LockedPrice | null {
  if (plan.price_cents === null || plan.add_on_cents === null) return null;
  return { priceCents: plan.price_cents, addOnCents: plan.add_on_cents };
}

/** The new price waiting for its day, and that day; null when none. */
export function pendingPrice(plan: PlanPriceColumns): (LockedPrice & { from: string }) | null {
  if (plan.pending_price_cents === null || plan.pending_add_on_cents === null || plan.pending_price_from === null) {
    return null;
  }
  return {
    priceCents: plan.pending_price_cents,
    addOnCents: plan.pending_add_on_cents,
    from: String(plan.pending_price_from).slice(0, 10),
  };
}

/** The plan's price for the month starting `month`: the new one from its day on, else the locked one. */
export function priceForMonth(plan: PlanPriceColumns, month: string): LockedPrice | null {
  const pending = pendingPrice(plan);
  if (pending && pending.from <= month) return { priceCents: pending.priceCents, addOnCents: pending.addOnCents };
  return lockedPrice(plan);
}

/**
 * The first day a price changed on `today` may apply: the first of a month at least the Terms'
 * notice away, so a month is always billed at one price and the customer has the whole notice.
 */
export function priceChangeDay(today: string, noticeDays: number): string {
  const earliest = addDays(today, noticeDays);
  const month = monthOf(earliest);
  return month === earliest ? earliest : addMonths(month, 1);
}

const monthly = (cents: number) => formatPrice({ amount: cents / 100, unit: "month" });

/**
 * What the plan pages say of its price: the locked one ("$104/month", with its plan and add-ons
 * when both), and the new one waiting for its day ("New price from April 1, 2027: $114/month").
 */
export function planPriceText(plan: PlanPriceColumns) {
  const locked = lockedPrice(plan);
  const pending = pendingPrice(plan);
  return {
    price: locked ? monthly(totalCents(locked)) : null,
    breakdown:
      locked && locked.addOnCents > 0
        ? `${monthly(locked.priceCents)} plan +${monthly(locked.addOnCents)} add-ons`
        : null,
    newPrice: pending ? `New price from ${priceDayText(pending.from)}: ${monthly(totalCents(pending))}` : null,
  };
}

const dateFormat = new Intl.DateTimeFormat("en-US", {
  month: "long",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
/** "February 1, 2027" for "2027-02-01". */
export const priceDayText = (day: string) => dateFormat.format(new Date(`${day}T00:00:00Z`));
