import type { PaymentMethod, PaymentReversalKind } from "../../../db/enums";
import { queuePaymentReceipt } from "./billing-emails.server";
import { billingMailContext, type MailContext } from "./payment-recovery-emails.server";
import { afterInvoiceSettled, customerEmail } from "./payment-resume.server";
import { invoiceNumber } from "../../../db/enums";
import { applyCreditOnFile } from "./customer-credit.server";
import { paymentParts } from "./payment-parts";
import { expireStaleCheckoutsOf } from "./stripe-checkout-expiry.server";
import { giveBackVoidedCredits } from "./void-credits.server";
import {
  addInvoiceRefunded,
  addPaymentRefunded,
  addPaymentReversed,
  insertPayment,
  insertRefund,
  lockInvoice,
  lockPayment,
  setInvoicePaid,
  setInvoiceUncollectible,
  setInvoiceVoid,
  setWrittenOffInvoicePaid,
} from "~/models/invoice.server";
import { allocateInvoiceNumber, insertReissue } from "~/models/invoice-run.server";
import { businessToday } from "~/features/visits/visit-dates";
import { creditsOnFile, insertCreditNote, insertPaymentReversal, lockCustomerMoney } from "~/models/ledger.server";
import type { Db } from "~/utils/db.server";

/**
 * Payments recorded by hand, voids and refunds (docs/decisions/102). Each is one transaction that
 * locks the invoice (and the payment, for a refund) first, so two presses, two admins or a
 * webhook cannot interleave; the payment's unique idempotency key makes a repeated press find the
 * first payment instead of adding a second. An invoice is paid when what paid it covers its
 * total; a refund never opens it again (docs/decisions/113). Each document stored here is an
 * entry of the customer ledger, written by the database in the same statement. Every payment
 * recorded queues the customer's receipt in its transaction (docs/decisions/106); a refund sends
 * none. Locks: the invoice, then the payment, then the customer's money (lockCustomerMoney).
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

/**
 * Records a payment; `{ repeated: true }` when the key was used already (nothing new stored). A
 * payment pays its invoice up to what it owes; a Stripe payment beyond that (the invoice was paid
 * meanwhile, by another card or by hand) is kept as credit on file and used at once on what else is
 * owed (docs/decisions/113).
 */
export async function recordPayment(db: Db, input: RecordPaymentInput): Promise<{ repeated: boolean }> {
  // Read before the locks are taken (Sanity's settings are cached, but may be fetched).
  const context = input.context ?? (await billingMailContext());
  const done = await db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, input.invoiceId);
    if (!invoice) throw new BillingError("We could not find that invoice.", 404);
    const owed = invoice.status === "open" ? Math.max(0, invoice.total_cents - invoice.paid_cents) : 0;
    const applied = Math.min(input.amountCents, owed);
    const id = await insertPaymentChecked(trx, invoice, { ...input, toCreditCents: input.amountCents - applied });
    if (id === null) return { repeated: true, credited: [] };
    const paid = invoice.paid_cents + applied;
    const settled = invoice.status === "open" && paid >= invoice.total_cents;
    if (applied > 0) await setInvoicePaid(trx, invoice.id, paid, settled ? "paid" : "open", settled ? input.now : null);
    await queuePaymentReceipt(trx, {
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
        owedCents: invoice.status === "open" && !settled ? invoice.total_cents - paid : 0,
        paidInFull: invoice.status !== "open" || settled,
      },
    });
    // Every payment passes here (by hand, a Stripe charge, a webhook): a plan held for this
    // invoice resumes in the same transaction (docs/decisions/104).
    if (settled) await afterInvoiceSettled(trx, { invoiceId: invoice.id, now: input.now });
    const credit = applied < input.amountCents ? await applyCreditOnFile(trx, [invoice.customer_id], input.now) : null;
    return { repeated: false, credited: credit?.credited ?? [] };
  });
  // Committed: a "Pay now" page of an invoice the overpayment's credit paid is expired (decision 111).
  await expireStaleCheckoutsOf(db, done.credited, input.now);
  return { repeated: done.repeated };
}

async function insertPaymentChecked(
  trx: Db,
  invoice: { id: string; status: string; total_cents: number; paid_cents: number },
  input: RecordPaymentInput & { toCreditCents: number },
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

/** Why an invoice with a payment on it cannot be voided, and what the admin does instead. */
export const VOID_PAID_MESSAGE =
  'A payment is recorded on this invoice, so it cannot be voided (a refund does not undo a payment). To stop collecting what is left, use "Mark uncollectible". If a payment never arrived (a check that bounced), "Reverse payment" it first.';

/** Voids an open invoice with nothing paid on it: nothing is owed any more. */
export async function voidInvoice(db: Db, input: { invoiceId: string; now: Date }) {
  const credited = await db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, input.invoiceId);
    if (!invoice) throw new BillingError("We could not find that invoice.", 404);
    if (invoice.status === "void") return [];
    if (invoice.status !== "open" && invoice.status !== "draft") {
      throw new BillingError("Only an open invoice can be voided.", 409);
    }
    if (invoice.paid_cents > invoice.credit_applied_cents) {
      // A refund gives money back but leaves the payment on the invoice, so it never makes one voidable.
      throw new BillingError(VOID_PAID_MESSAGE, 409);
    }
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
    // What it credited comes back as a credit note (decision 120): a void never takes it away.
    const givenBack = await giveBackVoidedCredits(trx, invoice, input.now);
    // Credit on file that paid part of it is the customer's again, for what else is owed.
    if (invoice.credit_applied_cents === 0 && givenBack === 0) return [];
    return (await applyCreditOnFile(trx, [invoice.customer_id], input.now)).credited;
  });
  await expireStaleCheckoutsOf(db, credited, input.now);
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

/**
 * The prologue of a refund and a reversal: the invoice locked, then its payment (another
 * invoice's payment is a missing one), then the form's key looked up in the table the change
 * writes. Null when the key was used already: the change was made, nothing more to do.
 */
async function lockInvoiceAndPayment(
  trx: Db,
  input: { invoiceId: string; paymentId: string; idempotencyKey: string },
  keyedIn: "refunds" | "payment_reversals",
) {
  const invoice = await lockInvoice(trx, input.invoiceId);
  if (!invoice) throw new BillingError("We could not find that invoice.", 404);
  const payment = await lockPayment(trx, input.paymentId);
  if (!payment || payment.invoice_id !== invoice.id) throw new BillingError("We could not find that payment.", 404);
  const used = await trx
    .selectFrom(keyedIn)
    .select("id")
    .where("idempotency_key", "=", input.idempotencyKey)
    .executeTakeFirst();
  return used ? null : { invoice, payment };
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
 * payments' CHECK). A refund never makes its invoice owed again (docs/decisions/113): the part of
 * it that pays back an overpayment still on file comes out of that credit; the rest is money the
 * business gives back, so it comes with a credit note paid out as this refund, and the balance
 * stays what it was. Any credit on file is paid back first (decision 115: a cancellation's credit
 * is refunded to the card this way). Only "Reverse payment" makes money owed again.
 */
export async function recordRefund(db: Db, input: RefundInput): Promise<{ repeated: boolean }> {
  return db.transaction().execute(async (trx) => {
    const locked = await lockInvoiceAndPayment(trx, input, "refunds");
    if (!locked) return { repeated: true };
    const { invoice, payment } = locked;
    if (input.stripeRefundId) {
      const known = await trx
        .selectFrom("refunds")
        .select("id")
        .where("stripe_refund_id", "=", input.stripeRefundId)
        .executeTakeFirst();
      if (known) return { repeated: true };
    }
    if (input.amountCents > payment.amount_cents - payment.refunded_cents - payment.reversed_cents) {
      throw new BillingError("A refund cannot be more than what is left of the payment.", 409);
    }
    await lockCustomerMoney(trx, [invoice.customer_id]);
    // Credit on file is the customer's money held here (an overpayment, a cancellation's credit
    // note: decision 115), so a refund pays it back first, as far as it is still on file (read
    // before the refund is entered); only the rest is money given back with a credit note.
    const credit = (await creditsOnFile(trx, [invoice.customer_id])).get(invoice.customer_id) ?? 0;
    const fromCredit = Math.min(input.amountCents, credit);
    const given = input.amountCents - fromCredit;
    const id = await insertRefund(trx, { ...input });
    if (id === null) return { repeated: true };
    await addPaymentRefunded(trx, payment.id, input.amountCents);
    await addInvoiceRefunded(trx, invoice.id, input.amountCents, input.now);
    if (given > 0) {
      await insertCreditNote(trx, {
        customerId: invoice.customer_id,
        invoiceId: invoice.id,
        reason: "refund",
        paidOut: "refund",
        amountCents: given,
        issuedOn: input.refundedOn,
        description: input.note
          ? `Refund: ${input.note}`.slice(0, 300)
          : `Refund of a payment on invoice ${invoice.number}`,
        refundId: id,
        idempotencyKey: `refund:${id}`,
      });
    }
    return { repeated: false };
  });
}

export type ReversePaymentInput = {
  invoiceId: string;
  paymentId: string;
  amountCents: number;
  reversedOn: string;
  note: string | null;
  recordedBy: string | null;
  idempotencyKey: string;
  now: Date;
};

/**
 * "Reverse payment" (a check that bounced): the money never came, so the invoice owes it again
 * and is open for collection. The one action that makes money owed again (docs/decisions/113).
 */
export async function reversePayment(db: Db, input: ReversePaymentInput): Promise<{ repeated: boolean }> {
  const done = await db.transaction().execute((trx) => reversePaymentIn(trx, { ...input, kind: "reversed" }));
  await expireStaleCheckoutsOf(db, done.credited, input.now);
  return { repeated: done.repeated };
}

export type ReversalInput = ReversePaymentInput & {
  kind: PaymentReversalKind;
  /** A lost dispute's id at Stripe (docs/decisions/118). */
  stripeDisputeId?: string | null;
  /**
   * "exact" (the admin's form): more than what is left of the payment is refused. "at most" (a
   * lost dispute: Stripe has taken the money already): what is left of it, and nothing when
   * nothing is (`reversal: null`).
   */
  fit?: "exact" | "at most";
};

/**
 * Money taken back out of a payment, in the caller's transaction: "Reverse payment" and a dispute
 * lost (docs/decisions/113, 118, 121) both pass here. The invoice and the payment are locked, the
 * key looked up, and at most what the payment paid of its invoice less what was refunded or
 * reversed before is reversed; the ledger's trigger writes the entry, the invoice is open again
 * for it, and credit on file (an overpayment, a credit note) pays what it can before any card is
 * tried. A lost dispute (Stripe has the money already) also takes back what the payment left as
 * credit on file, as far as that credit is still on file (never below zero), and on a voided or
 * written-off invoice it reopens nothing: a void invoice's payment was credit on file, and what a
 * payment paid of a written-off invoice is written off with it (a second entry of the reversal).
 * `credited`: the invoices the credit paid (the caller expires their "Pay now" pages once committed).
 */
export async function reversePaymentIn(trx: Db, input: ReversalInput) {
  const none = {
    repeated: false,
    credited: [] as string[],
    reversal: null as null | {
      id: string;
      amountCents: number;
      reopenedCents: number;
      fromCreditCents: number;
      writtenOffCents: number;
    },
  };
  const locked = await lockInvoiceAndPayment(trx, input, "payment_reversals");
  if (!locked) return { ...none, repeated: true };
  const { invoice, payment } = locked;
  const dispute = input.kind === "dispute_lost";
  const closed = invoice.status === "void" || invoice.status === "uncollectible";
  if (invoice.status === "draft" || (closed && !dispute)) {
    throw new BillingError("Only a payment on an open or paid invoice can be reversed.", 409);
  }
  // What is left of the payment: the part that still pays its invoice, and the credit it left.
  const { ofInvoice, asCredit } = paymentParts(payment, invoice);
  if (input.fit !== "at most" && input.amountCents > ofInvoice) {
    throw new BillingError("A reversal cannot be more than what is left of the payment.", 409);
  }
  const fromInvoice = Math.min(input.amountCents, ofInvoice);
  let fromCredit = 0;
  if (dispute && input.amountCents > fromInvoice) {
    // The rest of a lost dispute comes out of the credit the payment left (all of a void
    // invoice's payment was credit), as far as the customer still has credit on file: read
    // under the customer's money lock, before the invoice is reopened.
    await lockCustomerMoney(trx, [invoice.customer_id]);
    const onFile = (await creditsOnFile(trx, [invoice.customer_id])).get(invoice.customer_id) ?? 0;
    fromCredit = Math.max(0, Math.min(input.amountCents - fromInvoice, asCredit, onFile));
  }
  const amountCents = fromInvoice + fromCredit;
  if (amountCents <= 0) return none;
  const writtenOff = invoice.status === "uncollectible" ? fromInvoice : 0;
  const id = await insertPaymentReversal(trx, {
    ...input,
    amountCents,
    fromCreditCents: fromCredit,
    writtenOffCents: writtenOff,
  });
  if (id === null) return { ...none, repeated: true };
  await addPaymentReversed(trx, payment.id, amountCents);
  const reopened = closed ? 0 : fromInvoice;
  if (writtenOff > 0) await setWrittenOffInvoicePaid(trx, invoice.id, invoice.paid_cents - writtenOff, input.now);
  if (reopened > 0) await setInvoicePaid(trx, invoice.id, invoice.paid_cents - reopened, "open", null);
  // Credit on file (an overpayment, say) pays what is owed again before any card is tried.
  const { credited } = reopened > 0 ? await applyCreditOnFile(trx, [invoice.customer_id], input.now) : { credited: [] };
  return {
    repeated: false,
    credited,
    reversal: { id, amountCents, reopenedCents: reopened, fromCreditCents: fromCredit, writtenOffCents: writtenOff },
  };
}

/**
 * "Issue again" on a voided invoice (issue 34): the same lines on a new open invoice numbered
 * today, due today; credit on file pays it first. A second press finds the first reissue; a month
 * whose plan has a live invoice already is refused. Returns the new invoice's id.
 */
export async function reissueInvoice(db: Db, input: { invoiceId: string; now: Date }): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, input.invoiceId);
    if (!invoice) throw new BillingError("We could not find that invoice.", 404);
    if (invoice.reissued_as) return invoice.reissued_as;
    if (invoice.status !== "void") throw new BillingError("Only a voided invoice can be issued again.", 409);
    if (invoice.plan_id) {
      const live = await trx
        .selectFrom("invoices")
        .select("number")
        .where("plan_id", "=", invoice.plan_id)
        .where("period_month", "=", invoice.period_month)
        .where("status", "<>", "void")
        .executeTakeFirst();
      if (live) throw new BillingError(`Invoice ${live.number} is already this plan's for that month.`, 409);
    }
    const today = businessToday(input.now);
    const year = Number(today.slice(0, 4));
    const number = invoiceNumber(year, await allocateInvoiceNumber(trx, year));
    // The credits a void gave back (decision 120) are not carried again: the note stands.
    const created = await insertReissue(trx, invoice, { number, issuedOn: today, issuedAt: input.now });
    await applyCreditOnFile(trx, [invoice.customer_id], input.now);
    return created.id;
  });
}
