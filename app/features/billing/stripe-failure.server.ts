import { notePaymentFailed } from "./payment-recovery.server";
import { insertPaymentFailure } from "~/models/stripe.server";
import type { Db } from "~/utils/db.server";
import { log } from "~/utils/logger.server";

/**
 * A card payment of an invoice failed at Stripe (a `payment_intent.payment_failed` webhook whose
 * PaymentIntent, read again, has not succeeded). For now it keeps the decline reason (one row per
 * PaymentIntent in stripe_payment_failures) and logs it; the recovery of failed payments (issue 27
 * step 4, docs/decisions/104: the e-mail, the retries, the pause) takes it from there, once per
 * PaymentIntent (a replayed or late webhook, or the charge job's own report, adds nothing).
 */
export async function onStripePaymentFailed(
  db: Db,
  input: { invoiceId: string; reason: string; paymentIntentId: string | null; payNow?: boolean; now: Date },
) {
  await insertPaymentFailure(db, {
    invoiceId: input.invoiceId,
    paymentIntentId: input.paymentIntentId,
    reason: input.reason,
    failedAt: input.now,
  });
  await notePaymentFailed(db, {
    invoiceId: input.invoiceId,
    reason: input.reason,
    paymentIntentId: input.paymentIntentId,
    payNow: input.payNow,
    now: input.now,
  });
  log.info("stripe.payment_failed", {
    invoiceId: input.invoiceId,
    paymentIntentId: input.paymentIntentId,
    reason: input.reason,
  });
}
