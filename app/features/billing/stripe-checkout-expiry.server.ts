import { getInvoice } from "~/models/invoice.server";
import { closeCheckoutSession, listPayableCheckoutSessions } from "~/models/stripe.server";
import type { Db } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { isStripeConfigured, stripeClient } from "~/utils/stripe.server";

/**
 * A "Pay now" page must not stay payable once its invoice is settled another way (docs/decisions/111):
 * Stripe keeps a Checkout session open for 24 hours, and a customer who pays on it after the card
 * on file did pays twice. Called after each settling transaction has committed (a Stripe payment
 * recorded, a payment by hand, a void, a write-off): every session of the invoice still payable
 * for an amount that is no longer its balance (all of them once it is not open) is expired at
 * Stripe and closed here.
 *
 * Never throws: the settling is done and stays done. A session Stripe no longer holds open (paid,
 * expired) is closed here; a failure to reach Stripe is logged and the session left as it is: a
 * payment that still arrives on it is recorded as any Stripe payment (docs/decisions/103).
 * Returns how many sessions were expired at Stripe.
 */
export async function expireStaleCheckouts(db: Db, invoiceId: string, now: Date): Promise<number> {
  if (!isStripeConfigured()) return 0;
  let expired = 0;
  try {
    const sessions = await listPayableCheckoutSessions(db, invoiceId);
    if (sessions.length === 0) return 0;
    const invoice = await getInvoice(db, invoiceId);
    const balance = invoice && invoice.status === "open" ? invoice.total_cents - invoice.paid_cents : 0;
    const stale = sessions.filter((session) => session.amount_cents !== balance);
    if (stale.length === 0) return 0;
    const stripe = await stripeClient();
    for (const session of stale) {
      try {
        await stripe.checkout.sessions.expire(session.id);
        expired += 1;
        await closeCheckoutSession(db, session.id, now);
      } catch (error) {
        if ((error as { type?: unknown })?.type === "StripeInvalidRequestError") {
          // Not open at Stripe any more (completed, expired, deleted): nothing can be paid on it.
          await closeCheckoutSession(db, session.id, now);
          continue;
        }
        log.warn("stripe.checkout_expire_failed", { invoiceId, sessionId: session.id, ...errorFields(error) });
      }
    }
    if (expired > 0) log.info("stripe.checkout_expired", { invoiceId, expired });
  } catch (error) {
    log.warn("stripe.checkout_expire_failed", { invoiceId, ...errorFields(error) });
  }
  return expired;
}

/**
 * The same for each invoice that credit on file paid (applyCreditOnFile's `credited`: the billing
 * run, a void, a reversal, an overpayment), after that transaction has committed. Never throws.
 */
export async function expireStaleCheckoutsOf(db: Db, invoiceIds: readonly string[], now: Date): Promise<number> {
  let expired = 0;
  for (const invoiceId of new Set(invoiceIds)) expired += await expireStaleCheckouts(db, invoiceId, now);
  return expired;
}
