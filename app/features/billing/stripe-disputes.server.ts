import { formatCents } from "./money";
import { billingMailContext, type MailContext } from "./payment-recovery-emails.server";
import { reversePaymentIn } from "./payments.server";
import { syncStripeIntent } from "./stripe-payments.server";
import { expireStaleCheckoutsOf } from "./stripe-checkout-expiry.server";
import { enqueueEmail, type EmailToEnqueue } from "~/features/outbox/outbox.server";
import { businessToday } from "~/features/visits/visit-dates";
import { insertChargeFailure } from "~/models/invoice-collection.server";
import { getInvoice } from "~/models/invoice.server";
import { findPaymentByIntent, markPaymentDisputeClosed, markPaymentDisputed } from "~/models/stripe.server";
import type { Db } from "~/utils/db.server";
import { log } from "~/utils/logger.server";
import { stripeClient, type Stripe } from "~/utils/stripe.server";

/**
 * Disputes (chargebacks) from Stripe's webhook (docs/decisions/118). Opened (or its funds
 * withdrawn): the payment is marked disputed, and its invoice is not charged while the dispute is
 * open. Closed: read again from Stripe; lost is money the bank took back, so it is a reversal of
 * the payment ("dispute_lost", keyed by the dispute's id) on the same path as "Reverse payment":
 * the ledger's entry, the invoice open again for it, credit on file used first; and the owner is
 * e-mailed. Won or a warning closed changes no money; it is noted on the payment and logged.
 */

const note = (reason: string | null | undefined) =>
  `The customer disputed this payment with their bank (${reason ? reason.replace(/_/g, " ") : "no reason given"}).`;

/** `charge.dispute.created` and `charge.dispute.funds_withdrawn`: the payment is marked disputed. */
export async function disputeOpened(db: Db, event: { paymentIntentId: string; reason?: string | null }, now: Date) {
  // The disputed payment is recorded first if its own event has not come yet.
  await syncStripeIntent(db, event.paymentIntentId, now);
  const payment = await findPaymentByIntent(db, event.paymentIntentId);
  if (!payment) {
    log.warn("stripe.dispute_unmatched", { paymentIntentId: event.paymentIntentId });
    return;
  }
  await markPaymentDisputed(db, payment.id, note(event.reason), now);
  log.warn("stripe.dispute_created", { paymentId: payment.id, invoiceId: payment.invoice_id });
}

/** The statuses of a dispute that is over (`prevented`: a warning that never became a chargeback). */
const CLOSED: readonly string[] = ["lost", "won", "warning_closed", "prevented"];

const intentIdOf = (dispute: Stripe.Dispute) =>
  typeof dispute.payment_intent === "string" ? dispute.payment_intent : (dispute.payment_intent?.id ?? null);

/**
 * `charge.dispute.closed`: the dispute as Stripe has it now. Answers what was done, for the tests
 * and the log: nothing (still open, or no payment of ours), closed (won or a warning), or lost
 * (with the cents reopened, 0 when nothing of the payment was left to take back).
 */
export async function disputeClosed(
  db: Db,
  disputeId: string,
  now: Date,
  context?: MailContext,
): Promise<{ kind: "open" | "unmatched" | "closed" } | { kind: "lost"; reopenedCents: number; repeated: boolean }> {
  const stripe = await stripeClient();
  const dispute = await stripe.disputes.retrieve(disputeId);
  const paymentIntentId = intentIdOf(dispute);
  if (!CLOSED.includes(dispute.status)) {
    log.info("stripe.dispute_not_closed", { disputeId, status: dispute.status });
    return { kind: "open" };
  }
  if (paymentIntentId) await syncStripeIntent(db, paymentIntentId, now);
  const payment = paymentIntentId ? await findPaymentByIntent(db, paymentIntentId) : undefined;
  if (!payment) {
    log.warn("stripe.dispute_unmatched", { disputeId, paymentIntentId });
    return { kind: "unmatched" };
  }
  if (dispute.status !== "lost") {
    const outcome = dispute.status === "won" ? "won" : "closed without a chargeback";
    await markPaymentDisputeClosed(db, payment.id, `${note(dispute.reason)} The dispute was ${outcome}.`, now);
    log.info("stripe.dispute_closed", { disputeId, paymentId: payment.id, status: dispute.status });
    return { kind: "closed" };
  }
  const done = await recordDisputeLost(
    db,
    {
      disputeId: dispute.id,
      paymentId: payment.id,
      invoiceId: payment.invoice_id,
      amountCents: dispute.amount,
      reason: dispute.reason,
    },
    now,
    context,
  );
  return { kind: "lost", ...done };
}

export type LostDispute = {
  disputeId: string;
  paymentId: string;
  invoiceId: string;
  /** What the bank took back (Stripe's dispute amount). */
  amountCents: number;
  reason?: string | null;
};

/**
 * A dispute lost, once Stripe has said so: in one transaction, the payment reversed through
 * "Reverse payment"'s own path (at most what it still paid of its invoice; credit on file first),
 * the dispute marked closed, and the owner's e-mail queued; a second call for the dispute finds
 * its key and stores nothing. A payment of a voided or written-off invoice is refused
 * (BillingError: nothing stored; the webhook logs it and answers 2xx).
 */
export async function recordDisputeLost(db: Db, lost: LostDispute, now: Date, context?: MailContext) {
  const mailContext = context ?? (await billingMailContext());
  const why = lost.reason ? lost.reason.replace(/_/g, " ") : "no reason given";
  const done = await db.transaction().execute(async (trx) => {
    const reversed = await reversePaymentIn(trx, {
      kind: "dispute_lost",
      fit: "at most",
      invoiceId: lost.invoiceId,
      paymentId: lost.paymentId,
      amountCents: lost.amountCents,
      reversedOn: businessToday(now),
      note: `Dispute ${lost.disputeId} lost (${why}).`,
      recordedBy: null,
      idempotencyKey: `dispute:${lost.disputeId}`,
      stripeDisputeId: lost.disputeId,
      now,
    });
    const reopenedCents = reversed.reversal?.amountCents ?? 0;
    if (reversed.repeated) return { ...reversed, reopenedCents };
    await markPaymentDisputeClosed(trx, lost.paymentId, `${note(lost.reason)} The dispute was lost.`, now);
    const invoice = await getInvoice(trx, lost.invoiceId);
    if (invoice && reopenedCents > 0 && invoice.charge_attempts > 0) {
      // The collection's charge that paid it has ended after all: its attempt is no longer read
      // as one still at the bank (decision 111's in-flight test), so "Charge" and a new card work.
      await insertChargeFailure(trx, {
        invoiceId: invoice.id,
        attempt: invoice.charge_attempts,
        paymentIntentId: null,
        reason: "The card payment was disputed at the bank, and the dispute was lost.",
        failedAt: now,
      });
    }
    if (invoice) {
      await enqueueEmail(trx, {
        ...disputeLostEmail(mailContext, {
          disputeId: lost.disputeId,
          disputedCents: lost.amountCents,
          reopenedCents,
          owedCents: invoice.status === "open" ? invoice.total_cents - invoice.paid_cents : 0,
          invoice: { id: invoice.id, number: invoice.number },
          customer: invoice.full_name ? `${invoice.full_name} (${invoice.email})` : invoice.email,
        }),
        dedupeKey: `dispute-lost:${lost.disputeId}`,
        relatedId: invoice.id,
      });
    }
    return { ...reversed, reopenedCents };
  });
  // Committed: a "Pay now" page of an invoice the credit on file paid is expired (decision 111).
  await expireStaleCheckoutsOf(db, done.credited, now);
  log.warn("stripe.dispute_lost", {
    disputeId: lost.disputeId,
    paymentId: lost.paymentId,
    invoiceId: lost.invoiceId,
    reopenedCents: done.reopenedCents,
    repeated: done.repeated,
  });
  return { reopenedCents: done.reopenedCents, repeated: done.repeated };
}

/** The owner's e-mail of a lost dispute: what the bank took back and what the invoice owes again. */
export function disputeLostEmail(
  context: MailContext,
  lost: {
    disputeId: string;
    disputedCents: number;
    reopenedCents: number;
    owedCents: number;
    invoice: { id: string; number: string };
    customer: string;
  },
): EmailToEnqueue {
  const link = new URL(`/admin-dashboard/billing/${lost.invoice.id}`, context.siteUrl).href;
  const lines = [
    `The bank of ${lost.customer} decided a dispute against the business: Stripe took back ${formatCents(lost.disputedCents)} of a payment of invoice ${lost.invoice.number} (dispute ${lost.disputeId}).`,
    lost.reopenedCents > 0
      ? `Invoice ${lost.invoice.number} is open again for ${formatCents(lost.reopenedCents)}; credit on file was used first, and ${formatCents(lost.owedCents)} is still owed on it.`
      : `Nothing of that payment was left on the invoice (it was refunded or reversed before), so no invoice was reopened.`,
    `See the invoice: ${link}`,
  ];
  return {
    kind: "dispute_lost",
    to: context.ownerEmail,
    subject: `Dispute lost: ${formatCents(lost.disputedCents)} on invoice ${lost.invoice.number}`,
    text: lines.join("\n\n"),
  };
}
