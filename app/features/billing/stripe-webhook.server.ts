import { z } from "zod";
import { BillingError } from "./payments.server";
import { chargeNewCard } from "./new-card-charge.server";
import { syncPaymentSession, syncSetupIntent, syncSetupSession } from "./stripe-checkout.server";
import { onStripePaymentFailed } from "./stripe-failure.server";
import { invoiceOfIntent, syncStripeIntent } from "./stripe-payments.server";
import { disputeClosed, disputeOpened } from "./stripe-disputes.server";
import { recordStripeEvent } from "~/models/stripe.server";
import { getDb, type Db } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { BodyTooLargeError, readBodyWithLimit } from "~/utils/read-body-with-limit.server";
import { isStripeConfigured, stripeClient, verifyStripeEvent } from "~/utils/stripe.server";

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
  "charge.dispute.funds_withdrawn",
  "charge.dispute.closed",
] as const;
type HandledType = (typeof STRIPE_WEBHOOK_EVENTS)[number];
const isHandled = (type: string): type is HandledType => (STRIPE_WEBHOOK_EVENTS as readonly string[]).includes(type);

const plain = (status: number, message: string) =>
  new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/** A Stripe object id as Stripe makes them ("pi_3Q…"): a prefix, letters, digits and underscores. */
const stripeId = (prefix: string) =>
  z
    .string()
    .max(255)
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_]+$`));
/** Stripe sends an expandable field as its id, or expanded as the object. */
const ref = (prefix: string) =>
  z.union([stripeId(prefix), z.object({ id: stripeId(prefix) }).transform((o) => o.id)]).nullish();

/** What the webhook reads of any event, before anything else is looked at. */
const envelopeSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().max(255),
  account: z.string().nullish(),
  data: z.object({ object: z.record(z.unknown()) }),
});

/**
 * What each handler reads of its event's object, and nothing more: everything else is read again
 * from Stripe. A body that does not match is answered 200 and logged (a retry sends the same body).
 */
/**
 * A dispute opened or its funds withdrawn: the dispute's id (one row per dispute, docs/decisions/121),
 * its payment, and Stripe's fee as its balance transactions state it (cents, negative when given back).
 */
const disputeOpening = z.object({
  id: stripeId("(?:du|dp)"),
  payment_intent: ref("pi"),
  reason: z.string().max(100).nullish(),
  status: z.string().max(40).nullish(),
  balance_transactions: z
    .array(z.object({ fee: z.number().int().min(-10_000_000).max(10_000_000).nullish() }))
    .max(100)
    .nullish(),
});

const objectSchemas = {
  "checkout.session.completed": z.object({
    id: stripeId("cs"),
    mode: z.enum(["payment", "setup", "subscription"]),
  }),
  "payment_intent.succeeded": z.object({ id: stripeId("pi") }),
  "payment_intent.payment_failed": z.object({ id: stripeId("pi") }),
  "setup_intent.succeeded": z.object({ id: stripeId("seti") }),
  "charge.refunded": z.object({ payment_intent: ref("pi") }),
  "charge.dispute.created": disputeOpening,
  "charge.dispute.funds_withdrawn": disputeOpening,
  // Everything but the id is read again from Stripe (its status and amount now).
  "charge.dispute.closed": z.object({ id: stripeId("(?:du|dp)") }),
} satisfies Record<HandledType, z.ZodTypeAny>;
type EventObject<T extends HandledType> = z.infer<(typeof objectSchemas)[T]>;
type HandledEvent = { [T in HandledType]: { id: string; type: T; object: EventObject<T> } }[HandledType];

/**
 * Whether a retry of the event could end otherwise: not when Stripe answered the re-read with a
 * refusal of the request itself (an object it no longer has, `resource_missing`; an id it does
 * not accept; an idempotency key reused), since Stripe would send the same event and we the
 * same request. Everything else (Stripe or the database out of reach, Stripe's own 5xx, a rate
 * limit, a key rejected until the owner fixes it, a bug of ours) is worth Stripe's retries.
 */
function isFinalStripeAnswer(error: unknown) {
  const type = (error as { type?: unknown } | null)?.type;
  return type === "StripeInvalidRequestError" || type === "StripeIdempotencyError";
}

/**
 * Stripe's webhook (docs/decisions/103, 111). The body is bounded before it is read, the
 * signature checked by the package over the exact bytes, and only then is anything looked at:
 * the event's envelope and the fields its handler reads are checked with zod first. An event id
 * already stored answers 200 at once; a new one is handled, then stored. Each handler reads the
 * object again from Stripe and records what it says now, keyed by Stripe's ids, so events out of
 * order, replayed or delivered twice at once leave one consistent state.
 *
 * 2xx for everything a retry cannot change (Stripe retries a 5xx for three days and disables an
 * endpoint that keeps failing): unknown types, events of another account, a body without the
 * fields read, an object Stripe no longer has, one that belongs to no invoice here or to another
 * customer's: logged and answered 200. 500 only for what a retry can fix: Stripe or the
 * database out of reach.
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
  let verified: unknown;
  try {
    if (!signature) throw new Error("unsigned");
    verified = await verifyStripeEvent(bytes, signature);
  } catch (error) {
    log.warn("stripe.webhook_refused", { reason: signature ? "bad signature" : "unsigned", ...errorFields(error) });
    return plain(400, "Bad Request");
  }
  const envelope = envelopeSchema.safeParse(verified);
  if (!envelope.success) {
    // Signed, so Stripe's (or the secret's holder's): nothing here can be done with it, ever.
    log.warn("stripe.webhook_malformed", { reason: "envelope", issues: issuesOf(envelope.error) });
    return plain(200, "Ignored");
  }
  const event = envelope.data;
  // This app has one Stripe account and no connected accounts: anything else is not ours.
  if (event.account || !isHandled(event.type)) return plain(200, "Ignored");

  try {
    const db = await getDb();
    const seen = await db.selectFrom("stripe_events").select("id").where("id", "=", event.id).executeTakeFirst();
    if (seen) return plain(200, "Already received");
    const object = objectSchemas[event.type].safeParse(event.data.object);
    if (!object.success) {
      log.warn("stripe.webhook_malformed", { eventId: event.id, type: event.type, issues: issuesOf(object.error) });
    } else {
      try {
        await handleEvent(db, { id: event.id, type: event.type, object: object.data } as HandledEvent, now);
      } catch (error) {
        if (error instanceof BillingError) {
          log.warn("stripe.webhook_refused_data", { eventId: event.id, type: event.type, reason: error.message });
        } else if (isFinalStripeAnswer(error)) {
          // Most often `resource_missing`: the object was deleted, or is of another account or mode.
          log.warn("stripe.webhook_object_refused", { eventId: event.id, type: event.type, ...errorFields(error) });
        } else throw error;
      }
    }
    await recordStripeEvent(db, event.id, event.type);
    return plain(200, "OK");
  } catch (error) {
    log.error("stripe.webhook_failed", { eventId: event.id, type: event.type, ...errorFields(error) });
    return plain(500, "Try again later");
  }
}

/** Zod's complaints, short, for the log (never the body's values: they may be anyone's). */
const issuesOf = (error: z.ZodError) =>
  error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.code}`)
    .join("; ");

async function handleEvent(db: Db, event: HandledEvent, now: Date) {
  switch (event.type) {
    case "checkout.session.completed": {
      const { id, mode } = event.object;
      if (mode === "setup") {
        const synced = await syncSetupSession(db, id, now);
        if (synced) await chargeNewCard(db, synced.due, now);
      } else if (mode === "payment") await syncPaymentSession(db, id, now);
      return;
    }
    case "payment_intent.succeeded":
      await syncStripeIntent(db, event.object.id, now);
      return;
    case "payment_intent.payment_failed":
      await paymentFailed(db, event.object.id, now);
      return;
    case "setup_intent.succeeded": {
      const stripe = await stripeClient();
      const synced = await syncSetupIntent(db, await stripe.setupIntents.retrieve(event.object.id), now);
      // A new card pays what is due at once (only the first to see the card change charges).
      await chargeNewCard(db, synced.due, now);
      return;
    }
    case "charge.refunded": {
      const paymentIntentId = event.object.payment_intent;
      if (paymentIntentId) await syncStripeIntent(db, paymentIntentId, now);
      return;
    }
    case "charge.dispute.created":
    case "charge.dispute.funds_withdrawn": {
      const paymentIntentId = event.object.payment_intent;
      if (paymentIntentId) {
        const { id: disputeId, reason, status, balance_transactions } = event.object;
        await disputeOpened(db, { disputeId, paymentIntentId, reason, status, balance_transactions }, now);
      }
      return;
    }
    case "charge.dispute.closed":
      await disputeClosed(db, event.object.id, now);
      return;
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
    // The off-session charges name their attempt; a Checkout payment ("Pay now") does not.
    payNow: !intent.metadata?.attempt,
    now,
  });
}
