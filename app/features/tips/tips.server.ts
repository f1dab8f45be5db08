import { TIP_MAX_CENTS, TIP_MIN_CENTS } from "./tip-rules";
import { CURRENCY } from "~/features/billing/stripe-payments.server";
import { businessToday } from "~/features/visits/visit-dates";
import { getStripeCustomer } from "~/models/stripe.server";
import { deleteDeclinedTip, findTipOfVisit, insertTip, markTipPaid } from "~/models/tip.server";
import type { Tip } from "../../../db/schema";
import type { Db } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { isStripeConfigured, stripeClient, type Stripe } from "~/utils/stripe.server";

/**
 * Giving a tip for a visit (issue 36 item 5, docs/decisions/131): the signed-in customer's own
 * completed visit, one tip per visit, for the technician it was assigned to. With Stripe and a
 * card on file it is charged at once, off-session, under the key `tip:<id>` (a double click, a
 * retry after a lost answer, is the same charge at Stripe); otherwise it goes on the customer's
 * next invoice. All of it is the technician's: nothing is netted against credits or fees.
 */

/** Stripe's idempotency key of a tip's charge: one tip, one charge. */
export const tipChargeKey = (tipId: string) => `tip:${tipId}`;

export type TipVisit = { id: string; customer_id: string; status: string; assigned_to: string | null };

export type TipOutcome =
  | { kind: "charged"; tip: Tip }
  | { kind: "on_invoice"; tip: Tip }
  /** The visit has a tip already (a second press, a double click): nothing new is stored. */
  | { kind: "already"; tip: Tip }
  /** Stripe declined the card: nothing stored, the customer may try again. */
  | { kind: "declined"; reason: string }
  /** Stripe did not answer: the tip is kept unpaid; pressing again repeats the same charge. */
  | { kind: "pending"; tip: Tip }
  | { kind: "refused"; reason: string; status: 404 | 409 | 400 };

export const NOT_COMPLETED = "You can leave a tip once the visit is completed.";
export const NO_TECHNICIAN = "This visit has no technician on record, so it cannot take a tip.";

/** Why this customer cannot tip for this visit (null: they can). The same check before any write. */
export function tipRefusal(visit: TipVisit | null, customerId: string): { reason: string; status: 404 | 409 } | null {
  // Another customer's visit reads as a missing one: an id reveals nothing.
  if (!visit || visit.customer_id !== customerId) return { reason: "Visit not found", status: 404 };
  if (visit.status !== "completed") return { reason: NOT_COMPLETED, status: 409 };
  if (!visit.assigned_to) return { reason: NO_TECHNICIAN, status: 409 };
  return null;
}

export async function giveTip(
  db: Db,
  input: { visit: TipVisit | null; customerId: string; amountCents: number; now: Date },
): Promise<TipOutcome> {
  const refusal = tipRefusal(input.visit, input.customerId);
  if (refusal) return { kind: "refused", ...refusal };
  const visit = input.visit!;
  if (!Number.isInteger(input.amountCents) || input.amountCents < TIP_MIN_CENTS || input.amountCents > TIP_MAX_CENTS)
    return { kind: "refused", reason: "That tip amount is out of range.", status: 400 };

  const existing = await findTipOfVisit(db, visit.id);
  if (existing)
    return existing.way === "card" && !existing.paid_at ? chargeTip(db, existing, input.now) : already(existing);

  const card = isStripeConfigured() ? await getStripeCustomer(db, input.customerId) : undefined;
  const tip = await insertTip(db, {
    visitId: visit.id,
    customerId: input.customerId,
    technicianId: visit.assigned_to!,
    amountCents: input.amountCents,
    way: card?.payment_method_id ? "card" : "invoice",
    givenOn: businessToday(input.now),
  });
  // Null: a concurrent press stored the visit's tip first; that one is the tip.
  if (!tip) return already((await findTipOfVisit(db, visit.id))!);
  if (tip.way === "invoice") return { kind: "on_invoice", tip };
  return chargeTip(db, tip, input.now);
}

const already = (tip: Tip): TipOutcome => ({ kind: "already", tip });

async function chargeTip(db: Db, tip: Tip, now: Date): Promise<TipOutcome> {
  const card = await getStripeCustomer(db, tip.customer_id);
  if (!isStripeConfigured() || !card?.payment_method_id) return { kind: "pending", tip };
  const stripe = await stripeClient();
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: tip.amount_cents,
        currency: CURRENCY,
        customer: card.stripe_customer_id,
        payment_method: card.payment_method_id,
        off_session: true,
        confirm: true,
        description: "Tip for your technician",
        metadata: { tip_id: tip.id, visit_id: tip.visit_id, customer_id: tip.customer_id },
      },
      { idempotencyKey: tipChargeKey(tip.id) },
    );
  } catch (error) {
    const stripeError = error as { type?: string; message?: string };
    if (stripeError?.type === "StripeCardError" || stripeError?.type === "StripeInvalidRequestError") {
      // Nothing was charged: the tip is forgotten (it has no ledger entry) and may be given again.
      await deleteDeclinedTip(db, tip.id);
      return {
        kind: "declined",
        reason:
          stripeError.type === "StripeCardError"
            ? stripeError.message || "The card was declined."
            : "The card on file can no longer be charged.",
      };
    }
    log.warn("tips.charge_error", { tipId: tip.id, ...errorFields(error) });
    return { kind: "pending", tip };
  }
  if (intent.status !== "succeeded") {
    if (intent.status === "processing") return { kind: "pending", tip };
    await deleteDeclinedTip(db, tip.id);
    return { kind: "declined", reason: intent.last_payment_error?.message ?? "The card needs your confirmation." };
  }
  await markTipPaid(db, tip.id, intent.id, now);
  return { kind: "charged", tip: (await findTipOfVisit(db, tip.visit_id))! };
}
