import type { PaymentMethod } from "../../../db/enums";
import { queuePaymentReceipt } from "./billing-emails.server";
import { billingMailContext, type MailContext } from "./payment-recovery-emails.server";
import { afterInvoiceSettled, customerEmail } from "./payment-resume.server";
import {
  addPaymentRefunded,
  insertPayment,
  insertRefund,
  lockInvoice,
  lockPayment,
  setInvoicePaid,
  setInvoiceUncollectible,
  setInvoiceVoid,
} from "~/models/invoice.server";
import type { Db } from "~/utils/db.server";

/**
 * Payments recorded by hand, voids and refunds (docs/decisions/102). Each is one transaction that
 * locks the invoice (and the payment, for a refund) first, so two presses, two admins or a
 * webhook cannot interleave; the payment's unique idempotency key makes a repeated press find the
 * first payment instead of adding a second. An invoice is paid when what was paid (less refunds)
 * covers its total, and open again when a refund takes it below. Every payment recorded queues
 * the customer's receipt in its transaction (docs/decisions/106); a refund sends none.
 */

export class BillingError extends Error {
  constructor(
    message: string,
    readonly status: 404 | 409,
  ) {
    super(message);
  }
}

export type RecordPaymentInput = {
  invoiceId: string;
  method: PaymentMethod;
  amountCents: number;
  paidOn: string;
  note: string | null;
  recordedBy: string | null;
  idempotencyKey: string;
  now: Date;
  /**
   * A card payment Stripe has already collected (docs/decisions/103): it is recorded whatever the
   * invoice's state or balance (the money moved; an admin refunds an overpayment), and only an open
   * invoice it covers becomes paid.
   */
  stripePaymentIntentId?: string;
  /** The card a Stripe payment was made with, when known: the receipt names it ("Visa ending 4242"). */
  card?: { brand: string; last4: string } | null;
  /** The owner's words for the receipt; by default Sanity's. */
  context?: MailContext;
};

/** Records a payment; `{ repeated: true }` when the key was used already (nothing new stored). */
export async function recordPayment(db: Db, input: RecordPaymentInput): Promise<{ repeated: boolean }> {
  // Read before the locks are taken (Sanity's settings are cached, but may be fetched).
  const context = input.context ?? (await billingMailContext());
  return db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, input.invoiceId);
    if (!invoice) throw new BillingError("We could not find that invoice.", 404);
    const id = await insertPaymentChecked(trx, invoice, input);
    if (id === null) return { repeated: true };
    const paid = invoice.paid_cents + input.amountCents;
    const receipt = async (status: string) =>
      queuePaymentReceipt(trx, {
        context,
        customerEmail: await customerEmail(trx, invoice.customer_id),
        payment: {
          id,
          amountCents: input.amountCents,
          method: input.method,
          paidOn: input.paidOn,
          card: input.card ?? null,
        },
        invoice: {
          id: invoice.id,
          number: invoice.number,
          owedCents: status === "open" ? invoice.total_cents - paid : 0,
          paidInFull: paid >= invoice.total_cents,
        },
      });
    if (invoice.status !== "open") {
      // Only a Stripe payment gets here (insertPaymentChecked refuses the others).
      await setInvoicePaid(trx, invoice.id, paid, invoice.status, invoice.paid_at);
      await receipt(invoice.status);
      return { repeated: false };
    }
    const settled = paid >= invoice.total_cents;
    await setInvoicePaid(trx, invoice.id, paid, settled ? "paid" : "open", settled ? input.now : null);
    await receipt(settled ? "paid" : "open");
    // Every payment passes here (by hand, a Stripe charge, a webhook): a plan held for this
    // invoice resumes in the same transaction (docs/decisions/104).
    if (settled) await afterInvoiceSettled(trx, { invoiceId: invoice.id, now: input.now });
    return { repeated: false };
  });
}

async function insertPaymentChecked(
  trx: Db,
  invoice: { id: string; status: string; total_cents: number; paid_cents: number },
  input: RecordPaymentInput,
) {
  // A repeated press after the first one paid the invoice in full: the key answers before the state.
  const repeated = await trx
    .selectFrom("payments")
    .select("invoice_id")
    .where("idempotency_key", "=", input.idempotencyKey)
    .executeTakeFirst();
  if (repeated) {
    if (repeated.invoice_id !== invoice.id) throw new BillingError("This form was used for another invoice.", 409);
    return null;
  }
  if (input.stripePaymentIntentId) return insertPayment(trx, { ...input });
  if (invoice.status !== "open") throw new BillingError("Only an open invoice can take a payment.", 409);
  const owed = invoice.total_cents - invoice.paid_cents;
  if (input.amountCents > owed) {
    throw new BillingError("The amount is more than the invoice's balance.", 409);
  }
  return insertPayment(trx, { ...input });
}

/** Voids an open invoice with nothing paid on it: nothing is owed any more. */
export async function voidInvoice(db: Db, input: { invoiceId: string; now: Date }) {
  await db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, input.invoiceId);
    if (!invoice) throw new BillingError("We could not find that invoice.", 404);
    if (invoice.status === "void") return;
    if (invoice.status !== "open" && invoice.status !== "draft") {
      throw new BillingError("Only an open invoice can be voided.", 409);
    }
    if (invoice.paid_cents > 0) throw new BillingError("Refund its payments before voiding this invoice.", 409);
    // A draft has no issue day; voiding it issues nothing, so it gets one to satisfy the states' rule.
    if (invoice.status === "draft") {
      await trx
        .updateTable("invoices")
        .set({ issued_on: invoice.period_month, due_on: invoice.period_month })
        .where("id", "=", invoice.id)
        .execute();
    }
    await setInvoiceVoid(trx, invoice.id, input.now);
    // Nothing is owed any more: a plan held for it resumes (docs/decisions/104).
    await afterInvoiceSettled(trx, { invoiceId: invoice.id, now: input.now });
  });
}

/**
 * Writes off what is left unpaid on an open invoice ("uncollectible"): no card is tried again,
 * its payments stay on record, and, as after a void, a plan held for it resumes (an owner who
 * wants the service to end cancels the plan).
 */
export async function markInvoiceUncollectible(db: Db, input: { invoiceId: string; now: Date }) {
  await db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, input.invoiceId);
    if (!invoice) throw new BillingError("We could not find that invoice.", 404);
    if (invoice.status === "uncollectible") return;
    if (invoice.status !== "open") throw new BillingError("Only an open invoice can be written off.", 409);
    await setInvoiceUncollectible(trx, invoice.id, input.now);
    await afterInvoiceSettled(trx, { invoiceId: invoice.id, now: input.now });
  });
}

export type RefundInput = {
  invoiceId: string;
  paymentId: string;
  amountCents: number;
  refundedOn: string;
  note: string | null;
  recordedBy: string | null;
  idempotencyKey: string;
  now: Date;
  /** The Stripe refund this is: recorded once, whether the page or a webhook gets here first. */
  stripeRefundId?: string;
};

/**
 * Records a refund of a payment, never more than what is left of it (checked here, and by the
 * payments' CHECK on refunded_cents); a paid invoice it takes below its total is open again.
 */
export async function recordRefund(db: Db, input: RefundInput): Promise<{ repeated: boolean }> {
  return db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, input.invoiceId);
    if (!invoice) throw new BillingError("We could not find that invoice.", 404);
    const payment = await lockPayment(trx, input.paymentId);
    if (!payment || payment.invoice_id !== invoice.id) throw new BillingError("We could not find that payment.", 404);
    const used = await trx
      .selectFrom("refunds")
      .select("id")
      .where("idempotency_key", "=", input.idempotencyKey)
      .executeTakeFirst();
    if (used) return { repeated: true };
    if (input.stripeRefundId) {
      const known = await trx
        .selectFrom("refunds")
        .select("id")
        .where("stripe_refund_id", "=", input.stripeRefundId)
        .executeTakeFirst();
      if (known) return { repeated: true };
    }
    if (input.amountCents > payment.amount_cents - payment.refunded_cents) {
      throw new BillingError("A refund cannot be more than what is left of the payment.", 409);
    }
    const id = await insertRefund(trx, { ...input });
    if (id === null) return { repeated: true };
    await addPaymentRefunded(trx, payment.id, input.amountCents);
    const paid = invoice.paid_cents - input.amountCents;
    const status = invoice.status === "paid" && paid < invoice.total_cents ? "open" : invoice.status;
    await setInvoicePaid(trx, invoice.id, paid, status, status === "paid" ? invoice.paid_at : null);
    return { repeated: false };
  });
}
