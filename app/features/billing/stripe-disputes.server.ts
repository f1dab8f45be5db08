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

/**
 * Stripe's dispute fee, net: the sum of the dispute's balance transactions' fees (a fee is
 * positive when assessed, negative when Stripe gives it back, as when a dispute is won). The
 * business's cost, never the customer's (docs/decisions/121).
 */
export function disputeFeeCents(dispute: { balance_transactions?: readonly { fee?: number | null }[] | null }) {
  const fees = (dispute.balance_transactions ?? []).map((tx) => tx.fee ?? 0).filter(Number.isSafeInteger);
  return Math.max(
    0,
    fees.reduce((sum, fee) => sum + fee, 0),
  );
}

/**
 * `charge.dispute.created` and `charge.dispute.funds_withdrawn`: the dispute stored, and its
 * payment marked disputed while it is open (a new dispute after an earlier one closed, too).
 */
export async function disputeOpened(
  db: Db,
  event: {
    disputeId: string;
    paymentIntentId: string;
    reason?: string | null;
    status?: string | null;
    balance_transactions?: readonly { fee?: number | null }[] | null;
  },
  now: Date,
) {
  // The disputed payment is recorded first if its own event has not come yet.
  await syncStripeIntent(db, event.paymentIntentId, now);
  const payment = await findPaymentByIntent(db, event.paymentIntentId);
  if (!payment) {
    log.warn("stripe.dispute_unmatched", { disputeId: event.disputeId, paymentIntentId: event.paymentIntentId });
    return;
  }
  const dispute = {
    disputeId: event.disputeId,
    paymentId: payment.id,
    status: event.status || "needs_response",
    feeCents: disputeFeeCents(event),
  };
  const opened = await markPaymentDisputed(db, dispute, note(event.reason), now);
  log.warn("stripe.dispute_created", {
    disputeId: event.disputeId,
    paymentId: payment.id,
    invoiceId: payment.invoice_id,
    repeated: !opened,
  });
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
  const feeCents = disputeFeeCents(dispute);
  if (dispute.status !== "lost") {
    const outcome = dispute.status === "won" ? "won" : "closed without a chargeback";
    const seen = { disputeId: dispute.id, paymentId: payment.id, status: dispute.status, feeCents };
    await markPaymentDisputeClosed(db, seen, `${note(dispute.reason)} The dispute was ${outcome}.`, now);
    log.info("stripe.dispute_closed", { disputeId, paymentId: payment.id, status: dispute.status, feeCents });
    return { kind: "closed" };
  }
  const done = await recordDisputeLost(
    db,
    {
      disputeId: dispute.id,
      paymentId: payment.id,
      invoiceId: payment.invoice_id,
      amountCents: dispute.amount,
      feeCents,
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
  /** Stripe's dispute fee, net (the business's cost; stored on the dispute, never on the ledger). */
  feeCents?: number;
  reason?: string | null;
};

/**
 * A dispute lost, once Stripe has said so: in one transaction, the payment reversed through
 * "Reverse payment"'s own path (what it still paid of its invoice, reopened, or written off with a
 * written-off invoice; what it left as credit on file, taken from that credit; docs/decisions/121),
 * the dispute closed with Stripe's fee, and the owner's e-mail queued; a second call for the
 * dispute finds its key and stores nothing.
 */
export async function recordDisputeLost(db: Db, lost: LostDispute, now: Date, context?: MailContext) {
  const mailContext = context ?? (await billingMailContext());
  const why = lost.reason ? lost.reason.replace(/_/g, " ") : "no reason given";
  const feeCents = lost.feeCents ?? 0;
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
    const parts = {
      reopenedCents: reversed.reversal?.reopenedCents ?? 0,
      fromCreditCents: reversed.reversal?.fromCreditCents ?? 0,
      writtenOffCents: reversed.reversal?.writtenOffCents ?? 0,
    };
    if (reversed.repeated) return { ...reversed, ...parts };
    const closedNow = await markPaymentDisputeClosed(
      trx,
      { disputeId: lost.disputeId, paymentId: lost.paymentId, status: "lost", feeCents },
      `${note(lost.reason)} The dispute was lost.`,
      now,
    );
    // Nothing of the payment was left to take and the dispute was closed before: a replay.
    if (!closedNow && !reversed.reversal) return { ...reversed, repeated: true, ...parts };
    const invoice = await getInvoice(trx, lost.invoiceId);
    if (invoice && parts.reopenedCents > 0 && invoice.charge_attempts > 0) {
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
          ...parts,
          feeCents,
          owedCents: invoice.status === "open" ? invoice.total_cents - invoice.paid_cents : 0,
          invoice: { id: invoice.id, number: invoice.number, status: invoice.status },
          customer: invoice.full_name ? `${invoice.full_name} (${invoice.email})` : invoice.email,
        }),
        dedupeKey: `dispute-lost:${lost.disputeId}`,
        relatedId: invoice.id,
      });
    }
    return { ...reversed, ...parts };
  });
  // Committed: a "Pay now" page of an invoice the credit on file paid is expired (decision 111).
  await expireStaleCheckoutsOf(db, done.credited, now);
  log.warn("stripe.dispute_lost", {
    disputeId: lost.disputeId,
    paymentId: lost.paymentId,
    invoiceId: lost.invoiceId,
    reopenedCents: done.reopenedCents,
    fromCreditCents: done.fromCreditCents,
    writtenOffCents: done.writtenOffCents,
    feeCents,
    repeated: done.repeated,
  });
  return {
    reopenedCents: done.reopenedCents,
    fromCreditCents: done.fromCreditCents,
    writtenOffCents: done.writtenOffCents,
    repeated: done.repeated,
  };
}

/**
 * The owner's e-mail of a lost dispute: what the bank took back, where the books took it from
 * (the invoice open again, the credit on file, a write-off), what was not entered, and Stripe's fee.
 */
export function disputeLostEmail(
  context: MailContext,
  lost: {
    disputeId: string;
    disputedCents: number;
    reopenedCents: number;
    fromCreditCents?: number;
    writtenOffCents?: number;
    feeCents?: number;
    owedCents: number;
    invoice: { id: string; number: string; status?: string };
    customer: string;
  },
): EmailToEnqueue {
  const link = new URL(`/admin-dashboard/billing/${lost.invoice.id}`, context.siteUrl).href;
  const fromCredit = lost.fromCreditCents ?? 0;
  const writtenOff = lost.writtenOffCents ?? 0;
  const fee = lost.feeCents ?? 0;
  const entered = lost.reopenedCents + fromCredit + writtenOff;
  const number = lost.invoice.number;
  const lines = [
    `The bank of ${lost.customer} decided a dispute against the business: Stripe took back ${formatCents(lost.disputedCents)} of a payment of invoice ${number} (dispute ${lost.disputeId}).`,
  ];
  if (lost.reopenedCents > 0) {
    lines.push(
      `Invoice ${number} is open again for ${formatCents(lost.reopenedCents)}; credit on file was used first, and ${formatCents(lost.owedCents)} is still owed on it.`,
    );
  }
  if (fromCredit > 0) {
    lines.push(
      `${formatCents(fromCredit)} of it came out of the credit on file that payment had left${lost.invoice.status === "void" ? ` (invoice ${number} is voided)` : ""}: the customer's credit is lower by that much.`,
    );
  }
  if (writtenOff > 0) {
    lines.push(
      `Invoice ${number} was written off, so the ${formatCents(writtenOff)} that payment had paid of it is written off with it; the customer is not asked for it.`,
    );
  }
  if (entered === 0) {
    lines.push(
      `Nothing of that payment was left on the invoice or on file (it was refunded or reversed before, or its credit paid other invoices), so nothing was reopened.`,
    );
  } else if (entered < lost.disputedCents) {
    lines.push(
      `The other ${formatCents(lost.disputedCents - entered)} was not entered: that part of the payment had been refunded or reversed before, or its credit had paid other invoices. Settle it by hand if it is owed.`,
    );
  }
  if (fee > 0)
    lines.push(`Stripe's dispute fee: ${formatCents(fee)} (the business's cost; the customer is not charged it).`);
  lines.push(`See the invoice: ${link}`);
  return {
    kind: "dispute_lost",
    to: context.ownerEmail,
    subject: `Dispute lost: ${formatCents(lost.disputedCents)} on invoice ${number}`,
    text: lines.join("\n\n"),
  };
}
