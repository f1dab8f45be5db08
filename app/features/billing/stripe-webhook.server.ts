import { BillingError } from "./payments.server";
import { chargeNewCard } from "./new-card-charge.server";
import { syncPaymentSession, syncSetupIntent, syncSetupSession } from "./stripe-checkout.server";
import { onStripePaymentFailed } from "./stripe-failure.server";
import { invoiceOfIntent, syncStripeIntent } from "./stripe-payments.server";
import { findPaymentByIntent, markPaymentDisputed, recordStripeEvent } from "~/models/stripe.server";
import { getDb, type Db } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { BodyTooLargeError, readBodyWithLimit } from "~/utils/read-body-with-limit.server";
import { isStripeConfigured, stripeClient, verifyStripeEvent, type Stripe } from "~/utils/stripe.server";

/** Stripe's events are a few kilobytes (an expanded Checkout session tens); 256 KB is generous. */
export const STRIPE_WEBHOOK_MAX_BYTES = 256 * 1024;
export const STRIPE_WEBHOOK_PATH = "/resources/webhooks/stripe";

/** The events to enable on the endpoint in Stripe's Dashboard (README "Connecting Stripe"). */
export const STRIPE_WEBHOOK_EVENTS = [
  "checkout.session.completed",
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "setup_intent.succeeded",
  "charge.refunded",
  "charge.dispute.created",
] as const;
type HandledType = (typeof STRIPE_WEBHOOK_EVENTS)[number];
const isHandled = (type: string): type is HandledType => (STRIPE_WEBHOOK_EVENTS as readonly string[]).includes(type);

const plain = (status: number, message: string) =>
  new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

/**
 * Stripe's webhook (docs/decisions/103). The body is bounded before it is read, the signature
 * checked by the package over the exact bytes, and only then is anything looked at. An event id
 * already stored answers 200 at once; a new one is handled, then stored. Each handler reads the
 * object again from Stripe and records what it says now, keyed by Stripe's ids, so events out of
 * order, replayed or delivered twice at once leave one consistent state. Unknown types and
 * events of another account answer 200 and change nothing. A refusal of the data (another
 * customer's invoice) is logged and answered 200: Stripe resending it would change nothing. A
 * failure to reach Stripe or the database answers 500, and Stripe retries later.
 */
export async function receiveStripeWebhook(request: Request, now = new Date()): Promise<Response> {
  if (!isStripeConfigured()) return plain(404, "Not Found");
  let bytes: Uint8Array;
  try {
    bytes = await readBodyWithLimit(request, STRIPE_WEBHOOK_MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return plain(413, "Payload Too Large");
    return plain(400, "Bad Request");
  }
  const signature = request.headers.get("Stripe-Signature") ?? "";
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error("unsigned");
    event = await verifyStripeEvent(bytes, signature);
  } catch (error) {
    log.warn("stripe.webhook_refused", { reason: signature ? "bad signature" : "unsigned", ...errorFields(error) });
    return plain(400, "Bad Request");
  }
  // This app has one Stripe account and no connected accounts: anything else is not ours.
  if ((event as { account?: string }).account || !isHandled(event.type)) return plain(200, "Ignored");

  const db = await getDb();
  const seen = await db.selectFrom("stripe_events").select("id").where("id", "=", event.id).executeTakeFirst();
  if (seen) return plain(200, "Already received");
  try {
    await handleEvent(db, event, now);
  } catch (error) {
    if (!(error instanceof BillingError)) {
      log.error("stripe.webhook_failed", { eventId: event.id, type: event.type, ...errorFields(error) });
      return plain(500, "Try again later");
    }
    log.warn("stripe.webhook_refused_data", { eventId: event.id, type: event.type, reason: error.message });
  }
  await recordStripeEvent(db, event.id, event.type);
  return plain(200, "OK");
}

async function handleEvent(db: Db, event: Stripe.Event, now: Date) {
  const object = event.data.object as unknown as Record<string, unknown> & { id: string };
  switch (event.type as HandledType) {
    case "checkout.session.completed": {
      if (object.mode === "setup") {
        const synced = await syncSetupSession(db, object.id, now);
        if (synced) await chargeNewCard(db, synced.due, now);
      } else if (object.mode === "payment") await syncPaymentSession(db, object.id, now);
      return;
    }
    case "payment_intent.succeeded":
      await syncStripeIntent(db, object.id, now);
      return;
    case "payment_intent.payment_failed":
      await paymentFailed(db, object.id, now);
      return;
    case "setup_intent.succeeded": {
      const stripe = await stripeClient();
      const synced = await syncSetupIntent(db, await stripe.setupIntents.retrieve(object.id), now);
      // A new card pays what is due at once (only the first to see the card change charges).
      await chargeNewCard(db, synced.due, now);
      return;
    }
    case "charge.refunded": {
      const paymentIntentId = idOf(object.payment_intent as string | null);
      if (paymentIntentId) await syncStripeIntent(db, paymentIntentId, now);
      return;
    }
    case "charge.dispute.created": {
      const paymentIntentId = idOf(object.payment_intent as string | null);
      if (!paymentIntentId) return;
      // The disputed payment is recorded first if its own event has not come yet.
      await syncStripeIntent(db, paymentIntentId, now);
      const payment = await findPaymentByIntent(db, paymentIntentId);
      if (!payment) return;
      const reason = typeof object.reason === "string" ? object.reason.replace(/_/g, " ") : "no reason given";
      await markPaymentDisputed(db, payment.id, `The customer disputed this payment with their bank (${reason}).`, now);
      log.warn("stripe.dispute_created", { paymentId: payment.id, invoiceId: payment.invoice_id });
      return;
    }
  }
}

/**
 * A failed payment, read again: if the PaymentIntent has succeeded since (events out of order),
 * the payment is recorded instead; if it is still failed and pays an open invoice of ours, the
 * failure goes to onStripePaymentFailed.
 */
async function paymentFailed(db: Db, paymentIntentId: string, now: Date) {
  const { intent, recorded } = await syncStripeIntent(db, paymentIntentId, now);
  if (recorded !== "not_succeeded" || intent.status === "processing" || intent.status === "canceled") return;
  const invoice = await invoiceOfIntent(db, intent);
  if (!invoice || invoice.status !== "open") return;
  await onStripePaymentFailed(db, {
    invoiceId: invoice.id,
    reason: intent.last_payment_error?.message ?? "The payment failed.",
    paymentIntentId: intent.id,
    now,
  });
}
