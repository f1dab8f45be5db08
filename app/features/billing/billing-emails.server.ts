import type { PaymentMethod } from "../../../db/enums";
import { PAYMENT_METHOD_LABELS } from "./billing-schema";
import { cardText } from "./card-brands";
import { formatCents } from "./money";
import { dayText, mail, type Mail, type MailContext } from "./payment-recovery-emails.server";
import { enqueueEmail, enqueueEmails } from "~/features/outbox/outbox.server";
import { listInvoiceRecipients, type InsertedInvoice } from "~/models/invoice-run.server";
import type { Db } from "~/utils/db.server";

/**
 * Billing's everyday e-mails (docs/decisions/106): "Your invoice" when the billing run issues one,
 * and the receipt of every payment recorded. Both are queued in the transaction that makes the
 * invoice or records the payment, under a dedupe key of what they report, so a second run, a
 * replayed webhook or a double press stores nothing more; and neither is sent if it rolls back.
 */

const BILLING_PATH = "/customer-dashboard/billing";

const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
/** "March 2027" for "2027-03-01". */
const monthText = (period: string) => monthFormat.format(new Date(`${period}T00:00:00Z`));

const dateFormat = new Intl.DateTimeFormat("en-US", {
  month: "long",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
/** "March 4, 2027" for "2027-03-04" (a receipt keeps its year). */
const dateText = (day: string) => dateFormat.format(new Date(`${day}T00:00:00Z`));

export type IssuedInvoice = {
  id: string;
  number: string;
  period: string;
  totalCents: number;
  dueOn: string;
  footer: string | null;
  /** The card the collection job charges on the due day; null: none on file, or Stripe is off. */
  card: { brand: string; last4: string } | null;
  /** Whether the customer can pay online ("Pay now" on the invoice's page). */
  payOnline: boolean;
};

export function invoiceIssuedEmail(context: MailContext, invoice: IssuedInvoice): Mail {
  const month = monthText(invoice.period);
  const paragraphs = [`Your invoice ${invoice.number} for ${month} is ready.`];
  if (invoice.totalCents <= 0) {
    paragraphs.push("Your credits cover it: nothing is due, and you don't need to do anything.");
  } else {
    paragraphs.push(`Amount due: ${formatCents(invoice.totalCents)}, due ${dayText(invoice.dueOn)}.`);
    if (invoice.card) {
      paragraphs.push(
        `We will charge ${cardText(invoice.card)} on ${dayText(invoice.dueOn)}. You don't need to do anything.`,
      );
    } else if (invoice.payOnline) {
      paragraphs.push('You can pay it by card on its page with "Pay now", or add a card on your Billing page.');
    } else {
      paragraphs.push(`To pay it, call us at ${context.phone}.`);
    }
  }
  if (invoice.footer?.trim()) paragraphs.push(invoice.footer.trim());
  return mail(context, {
    kind: "invoice_issued",
    subject: `Your invoice ${invoice.number} for ${month}`,
    paragraphs,
    linkText: "See your invoice",
    path: `${BILLING_PATH}/${invoice.id}`,
  });
}

export const invoiceIssuedKey = (invoiceId: string) => `invoice-issued:${invoiceId}`;

/**
 * Queues "Your invoice" for each of the invoices a batch of the billing run just inserted, in its
 * transaction: one query for the addresses and cards, one INSERT for the e-mails. A customer whose
 * user is gone gets nothing. Answers how many were queued.
 */
export async function queueInvoiceEmails(
  trx: Db,
  invoices: readonly InsertedInvoice[],
  issue: {
    period: string;
    dueOn: string;
    footer: string | null;
    context: MailContext;
    stripeConfigured: boolean;
  },
): Promise<number> {
  if (invoices.length === 0) return 0;
  const recipients = new Map(
    (
      await listInvoiceRecipients(
        trx,
        invoices.map((invoice) => invoice.customer_id),
      )
    ).map((row) => [row.id, row]),
  );
  const emails = invoices.flatMap((invoice) => {
    const to = recipients.get(invoice.customer_id);
    if (!to?.email) return [];
    const card =
      issue.stripeConfigured && to.card_brand && to.card_last4 ? { brand: to.card_brand, last4: to.card_last4 } : null;
    const message = invoiceIssuedEmail(issue.context, {
      id: invoice.id,
      number: invoice.number,
      period: issue.period,
      // What is left to pay once credit on file paid part of it (docs/decisions/113).
      totalCents: invoice.total_cents - (invoice.credit_applied_cents ?? 0),
      dueOn: issue.dueOn,
      footer: issue.footer,
      card,
      payOnline: issue.stripeConfigured,
    });
    return [{ ...message, to: to.email, dedupeKey: invoiceIssuedKey(invoice.id), relatedId: invoice.id }];
  });
  return enqueueEmails(trx, emails);
}

export type ReceiptPayment = {
  id: string;
  amountCents: number;
  method: PaymentMethod;
  paidOn: string;
  /** The card charged, when known (a Stripe payment). */
  card: { brand: string; last4: string } | null;
};

export function paymentReceiptEmail(
  context: MailContext,
  payment: ReceiptPayment,
  invoice: { id: string; number: string; owedCents: number; paidInFull: boolean },
): Mail {
  const method = payment.card ? cardText(payment.card) : PAYMENT_METHOD_LABELS[payment.method];
  const lines = [
    `Amount: ${formatCents(payment.amountCents)}`,
    `Method: ${method}`,
    `Date: ${dateText(payment.paidOn)}`,
    `Invoice: ${invoice.number}`,
  ];
  if (invoice.paidInFull) lines.push("Paid in full");
  else if (invoice.owedCents > 0) lines.push(`Still owed on this invoice: ${formatCents(invoice.owedCents)}`);
  return mail(context, {
    kind: "payment_receipt",
    subject: `Payment received for invoice ${invoice.number}`,
    paragraphs: ["Thank you: we received your payment.", lines.join("\n")],
    linkText: "See your invoice",
    path: `${BILLING_PATH}/${invoice.id}`,
  });
}

export const paymentReceiptKey = (paymentId: string) => `payment-receipt:${paymentId}`;

/** Queues the receipt of a payment just recorded, in its transaction; nothing for a user that is gone. */
export async function queuePaymentReceipt(
  trx: Db,
  input: {
    context: MailContext;
    customerEmail: string | null;
    payment: ReceiptPayment;
    invoice: { id: string; number: string; owedCents: number; paidInFull: boolean };
  },
) {
  if (!input.customerEmail) return;
  await enqueueEmail(trx, {
    ...paymentReceiptEmail(input.context, input.payment, input.invoice),
    to: input.customerEmail,
    dedupeKey: paymentReceiptKey(input.payment.id),
    relatedId: input.invoice.id,
  });
}
