import type { Stripe } from "~/utils/stripe.server";
import { BillingError, recordPayment, recordRefund, type RefundInput } from "./payments.server";
import { expireStaleCheckouts } from "./stripe-checkout-expiry.server";
import { businessToday } from "~/features/visits/visit-dates";
import { getInvoice } from "~/models/invoice.server";
import { closeCheckoutSessionsOfIntent, findPaymentByIntent, getStripeCustomer } from "~/models/stripe.server";
import type { Db } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { isStripeConfigured, stripeClient } from "~/utils/stripe.server";
import { isUuid } from "~/utils/uuid";

/**
 * Stripe's money, recorded here (docs/decisions/103). Every path (the off-session charge, the
 * Checkout return, each webhook) reads the PaymentIntent as Stripe has it now and records what it
 * says, keyed by Stripe's ids: `stripe:<pi id>` for the payment, `stripe:<re id>` (or the admin
 * form's key) for a refund. So the order the events arrive in, and how often, changes nothing.
 */

export const CURRENCY = "usd";
export const paymentKeyFor = (paymentIntentId: string) => `stripe:${paymentIntentId}`;

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

/**
 * The invoice a PaymentIntent pays, when everything about it agrees: its metadata names an
 * invoice that exists, of the customer its metadata names, whose Stripe customer it was made for,
 * in the app's currency. Anything else (another customer's invoice, an unknown one, another
 * account's intent) is null: nothing is recorded for it.
 */
export async function invoiceOfIntent(db: Db, intent: Stripe.PaymentIntent) {
  const invoiceId = intent.metadata?.invoice_id ?? "";
  const customerId = intent.metadata?.customer_id ?? "";
  if (!isUuid(invoiceId) || !isUuid(customerId)) return null;
  if (intent.currency !== CURRENCY) return null;
  const invoice = await getInvoice(db, invoiceId);
  if (!invoice || invoice.customer_id !== customerId) return null;
  const stripeCustomer = idOf(intent.customer);
  if (stripeCustomer) {
    const known = await getStripeCustomer(db, customerId);
    if (known?.stripe_customer_id !== stripeCustomer) return null;
  }
  return invoice;
}

export type RecordedIntent = "recorded" | "repeated" | "not_succeeded" | "unmatched";

/** Records a succeeded PaymentIntent as a "stripe" payment once (its refunds are synced after). */
export async function recordStripeIntent(db: Db, intent: Stripe.PaymentIntent, now: Date): Promise<RecordedIntent> {
  if (intent.status !== "succeeded") return "not_succeeded";
  const invoice = await invoiceOfIntent(db, intent);
  if (!invoice) {
    log.warn("stripe.intent_unmatched", { paymentIntentId: intent.id });
    return "unmatched";
  }
  const amount = intent.amount_received || intent.amount;
  const card = await cardOfIntent(db, intent, invoice.customer_id);
  const { repeated } = await recordPayment(db, {
    invoiceId: invoice.id,
    method: "stripe",
    amountCents: amount,
    paidOn: businessToday(now),
    note: null,
    recordedBy: null,
    idempotencyKey: paymentKeyFor(intent.id),
    stripePaymentIntentId: intent.id,
    card,
    now,
  });
  if (!repeated && invoice.status !== "open") {
    // The money moved anyway (a cash payment or a void crossed it): the admin refunds it.
    log.warn("stripe.payment_on_closed_invoice", { invoiceId: invoice.id, status: invoice.status });
  }
  if (!repeated && invoice.total_cents - invoice.paid_cents < amount && invoice.status === "open") {
    log.warn("stripe.overpaid", { invoiceId: invoice.id });
  }
  // After the payment's transaction: a "Pay now" page still open for the old balance is expired.
  if (!repeated) await expireStaleCheckouts(db, invoice.id, now);
  return repeated ? "repeated" : "recorded";
}

/**
 * The card a PaymentIntent was paid with, for the receipt ("Visa ending 4242"): the card on file
 * when it is that one (the off-session charge), else the PaymentMethod as Stripe has it ("Pay
 * now" with another card). Null when it is recorded already (no receipt is sent again), is not a
 * card, or Stripe cannot say: the receipt then names the method alone.
 */
async function cardOfIntent(db: Db, intent: Stripe.PaymentIntent, customerId: string) {
  const method = intent.payment_method;
  if (!method) return null;
  if (typeof method !== "string") return method.card ? { brand: method.card.brand, last4: method.card.last4 } : null;
  if (await findPaymentByIntent(db, intent.id)) return null;
  const onFile = await getStripeCustomer(db, customerId);
  if (onFile?.payment_method_id === method && onFile.card_brand && onFile.card_last4) {
    return { brand: onFile.card_brand, last4: onFile.card_last4 };
  }
  try {
    const stripe = await stripeClient();
    const retrieved = await stripe.paymentMethods.retrieve(method);
    return retrieved.card ? { brand: retrieved.card.brand, last4: retrieved.card.last4 } : null;
  } catch (error) {
    log.warn("stripe.payment_method_unread", { paymentIntentId: intent.id, ...errorFields(error) });
    return null;
  }
}

/** Reads the PaymentIntent from Stripe, records it if it succeeded, then syncs its refunds. */
export async function syncStripeIntent(db: Db, paymentIntentId: string, now: Date) {
  const stripe = await stripeClient();
  const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
  // Out of the bank (paid or failed): a "Pay now" session of it no longer holds other charges.
  if (intent.status !== "processing") await closeCheckoutSessionsOfIntent(db, intent.id, now);
  const recorded = await recordStripeIntent(db, intent, now);
  if (recorded === "recorded" || recorded === "repeated") await syncStripeRefunds(db, intent.id, now);
  return { intent, recorded };
}

/**
 * Records each refund Stripe has of the payment that is not recorded yet (made in Stripe's
 * Dashboard, or a page's refund whose answer was lost). Never more than what was paid: the
 * refund workflow checks it, and the payments' CHECK backs it.
 */
export async function syncStripeRefunds(db: Db, paymentIntentId: string, now: Date) {
  const payment = await findPaymentByIntent(db, paymentIntentId);
  if (!payment) return 0;
  const stripe = await stripeClient();
  const list = await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 });
  let added = 0;
  for (const refund of [...list.data].reverse()) {
    if (refund.status !== "succeeded" && refund.status !== "pending") continue;
    try {
      const { repeated } = await recordRefund(db, {
        invoiceId: payment.invoice_id,
        paymentId: payment.id,
        amountCents: refund.amount,
        refundedOn: businessToday(new Date(refund.created * 1000)),
        note: "Refunded in Stripe",
        recordedBy: null,
        idempotencyKey: paymentKeyFor(refund.id),
        stripeRefundId: refund.id,
        now,
      });
      if (!repeated) added += 1;
    } catch (error) {
      if (!(error instanceof BillingError)) throw error;
      log.warn("stripe.refund_refused", { refundId: refund.id, reason: error.message });
    }
  }
  return added;
}

/**
 * The admin's "Refund" (docs/decisions/103): a card payment made through Stripe is refunded at
 * Stripe first (idempotency key from the form's key: a double press is one refund there), then
 * recorded with Stripe's refund id, so its `charge.refunded` webhook finds it and adds nothing.
 * Any other payment is recorded as before. Never more than what is left of the payment.
 */
export async function refundPayment(db: Db, input: RefundInput): Promise<{ repeated: boolean }> {
  const payment = await db
    .selectFrom("payments")
    .select(["id", "invoice_id", "amount_cents", "refunded_cents", "stripe_payment_intent_id"])
    .where("id", "=", input.paymentId)
    .executeTakeFirst();
  if (!payment || payment.invoice_id !== input.invoiceId)
    throw new BillingError("We could not find that payment.", 404);
  if (!payment.stripe_payment_intent_id) return recordRefund(db, input);
  const used = await db
    .selectFrom("refunds")
    .select("id")
    .where("idempotency_key", "=", input.idempotencyKey)
    .executeTakeFirst();
  if (used) return { repeated: true };
  if (!isStripeConfigured()) throw new BillingError("Connect Stripe to refund a card payment made through it.", 409);
  if (input.amountCents > payment.amount_cents - payment.refunded_cents) {
    throw new BillingError("A refund cannot be more than what is left of the payment.", 409);
  }
  const stripe = await stripeClient();
  let refund: Stripe.Refund;
  try {
    refund = await stripe.refunds.create(
      {
        payment_intent: payment.stripe_payment_intent_id,
        amount: input.amountCents,
        metadata: { invoice_id: payment.invoice_id, payment_id: payment.id },
      },
      { idempotencyKey: `refund:${input.idempotencyKey}` },
    );
  } catch (error) {
    const stripeError = error as { type?: string; message?: string };
    if (stripeError?.type === "StripeIdempotencyError") {
      // Stripe made a refund from this form's key for other parameters (its answer was lost):
      // a new key could refund twice. Its charge.refunded webhook records that one.
      log.error("stripe.refund_key_conflict", { paymentId: payment.id, ...errorFields(error) });
      throw new BillingError(
        "Stripe has a refund from this form for another amount. Nothing new was refunded; check the payment in Stripe.",
        409,
      );
    }
    if (stripeError?.type === "StripeInvalidRequestError") {
      throw new BillingError(`Stripe refused the refund: ${stripeError.message ?? "unknown reason"}`, 409);
    }
    log.error("stripe.refund_failed", { paymentId: payment.id, ...errorFields(error) });
    throw new BillingError("We could not reach Stripe. Check the payment in Stripe before trying again.", 409);
  }
  return recordRefund(db, { ...input, stripeRefundId: refund.id });
}
