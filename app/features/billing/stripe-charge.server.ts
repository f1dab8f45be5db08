import { BillingError } from "./payments.server";
import { CURRENCY, recordStripeIntent } from "./stripe-payments.server";
import { getInvoice } from "~/models/invoice.server";
import { getStripeCustomer, hasChargeInFlight, hasOpenDispute } from "~/models/stripe.server";
import type { Db } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { isStripeConfigured, stripeClient, type Stripe } from "~/utils/stripe.server";

export type ChargeOutcome =
  | { kind: "succeeded"; paymentIntentId: string }
  | { kind: "processing"; paymentIntentId: string }
  | { kind: "failed"; reason: string; paymentIntentId: string | null }
  | { kind: "no_card" }
  | { kind: "not_configured" }
  /**
   * Stripe refused the key: it was used before with other parameters, so Stripe acted on that
   * earlier request (its answer was lost to us). Nothing is recorded and no attempt counted; the
   * earlier request's own webhook settles it (docs/decisions/111).
   */
  | { kind: "key_conflict" }
  /** A charge of the invoice is still processing at the bank: no second one is made (111). */
  | { kind: "in_flight" }
  /** A payment of the invoice is under a dispute still open at the customer's bank: no charge (118). */
  | { kind: "disputed" };

/**
 * One key per invoice, attempt and amount (docs/decisions/111): a repeated attempt (a crash, a
 * re-run) is the same charge at Stripe, and the same attempt for another balance (a payment by
 * hand in between) is another request, not one Stripe refuses as a reuse of the key.
 */
export const chargeKeyFor = (invoiceId: string, attempt: number, amountCents: number) =>
  `invoice:${invoiceId}:attempt:${attempt}:amount:${amountCents}`;

/** The reason of a charge that never reached Stripe (the recovery tries again, telling no one). */
export const UNREACHABLE = "We could not reach Stripe to charge the card.";

/**
 * Charges an open invoice's balance to the customer's card on file, off-session (issue 27 step 3,
 * docs/decisions/103): a PaymentIntent confirmed at once, with the idempotency key
 * `invoice:<id>:attempt:<n>:amount:<cents>` (111). A success is recorded as a "stripe" payment under the intent's own
 * key, so the `payment_intent.succeeded` webhook for it finds it and adds nothing. A failure
 * returns the card's decline message and records nothing: the caller (the recovery of failed
 * payments) records it. Throws BillingError for an invoice that is missing or not open with a
 * balance.
 */
export async function chargeInvoiceOffSession(
  db: Db,
  input: { invoiceId: string; attempt: number; now: Date },
): Promise<ChargeOutcome> {
  if (!isStripeConfigured()) return { kind: "not_configured" };
  const invoice = await getInvoice(db, input.invoiceId);
  if (!invoice) throw new BillingError("We could not find that invoice.", 404);
  const balance = invoice.total_cents - invoice.paid_cents;
  if (invoice.status !== "open" || balance <= 0)
    throw new BillingError("Only an open invoice can take a payment.", 409);
  const card = await getStripeCustomer(db, invoice.customer_id);
  if (!card?.payment_method_id) return { kind: "no_card" };
  // Every off-session charge passes here (the job, "Charge", a new card): the last word on a double.
  if (await hasChargeInFlight(db, invoice.id)) return { kind: "in_flight" };
  if (await hasOpenDispute(db, invoice.id)) return { kind: "disputed" };

  const stripe = await stripeClient();
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: balance,
        currency: CURRENCY,
        customer: card.stripe_customer_id,
        payment_method: card.payment_method_id,
        off_session: true,
        confirm: true,
        description: `Invoice ${invoice.number}`,
        metadata: { invoice_id: invoice.id, customer_id: invoice.customer_id, attempt: String(input.attempt) },
      },
      { idempotencyKey: chargeKeyFor(invoice.id, input.attempt, balance) },
    );
  } catch (error) {
    return failureOf(error, invoice.id);
  }
  if (intent.status === "succeeded") {
    await recordStripeIntent(db, intent, input.now);
    return { kind: "succeeded", paymentIntentId: intent.id };
  }
  if (intent.status === "processing") return { kind: "processing", paymentIntentId: intent.id };
  return {
    kind: "failed",
    reason: intent.last_payment_error?.message ?? "The card needs the customer's confirmation.",
    paymentIntentId: intent.id,
  };
}

/** Stripe's refusal as the outcome: a decline's own message, or that Stripe could not be reached. */
function failureOf(error: unknown, invoiceId: string): ChargeOutcome {
  const stripeError = error as { type?: string; message?: string; payment_intent?: { id?: string } };
  if (stripeError?.type === "StripeIdempotencyError") {
    // Not "unreachable": Stripe answered, and did something with this key before. A second
    // PaymentIntent under a new key could charge twice; the first one's webhook says what it did.
    log.error("stripe.charge_key_conflict", { invoiceId, ...errorFields(error) });
    return { kind: "key_conflict" };
  }
  if (stripeError?.type === "StripeCardError") {
    // The card issuer's words as Stripe gives them ("Your card has insufficient funds."): meant for the customer.
    return {
      kind: "failed",
      reason: stripeError.message || "The card was declined.",
      paymentIntentId: stripeError.payment_intent?.id ?? null,
    };
  }
  if (stripeError?.type === "StripeInvalidRequestError") {
    // A card removed or expired at Stripe: Stripe's message names ids, not meant for the customer.
    log.warn("stripe.charge_refused", { invoiceId, ...errorFields(error) });
    return {
      kind: "failed",
      reason: "The card on file can no longer be charged.",
      paymentIntentId: stripeError.payment_intent?.id ?? null,
    };
  }
  log.warn("stripe.charge_error", { invoiceId, ...errorFields(error) });
  return { kind: "failed", reason: UNREACHABLE, paymentIntentId: null };
}
