import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import {
  INVOICE_STATUS_LABELS,
  PAYMENT_METHOD_LABELS,
  isInvoiceIntent,
  recordPaymentSchema,
  refundSchema,
  type InvoiceIntent,
} from "./billing-schema";
import { addMonths, currentPeriod, lastDayOf, monthOf } from "./billing-rules";
import { loadLedgerMonth, loadOverpaid } from "./ledger-export.server";
import { centsToInput, formatCents } from "./money";
import { paymentParts } from "./payment-parts";
import { chargeCardNow } from "./charge-now.server";
import {
  BillingError,
  markInvoiceUncollectible,
  recordPayment,
  reissueInvoice,
  reversePayment,
  voidInvoice,
} from "./payments.server";
import { cardOnFile } from "./stripe-checkout.server";
import { refundPayment } from "./stripe-payments.server";
import { expireStaleCheckouts } from "./stripe-checkout-expiry.server";
import { loadPlansOutsideCatalogue } from "./price-changes.server";
import { getSiteSettings } from "~/content/content.server";
import { businessToday } from "~/features/visits/visit-dates";
import {
  customerBalance,
  getCustomerInvoice,
  getInvoice,
  listInvoiceLines,
  listInvoicePayments,
  readBillingTab,
  readCustomerBilling,
  type InvoiceCursor,
} from "~/models/invoice.server";
import {
  listCreditNotesOfCustomer,
  listCreditNotesOfInvoice,
  listDisputesLost,
  listDisputesLostOfInvoice,
  listDisputesOfInvoice,
} from "~/models/ledger.server";
import { CREDIT_NOTE_REASON_LABELS, paidOutLabel } from "./credit-note-labels";
import { getDb } from "~/utils/db.server";
import { log } from "~/utils/logger.server";
import { redirectWithSuccess } from "~/utils/toast.server";
import { isStripeConfigured } from "~/utils/stripe.server";
import { isUuid } from "~/utils/uuid";
import type { InvoiceStatus } from "../../../db/enums";

/**
 * The billing pages' loaders and the invoice page's action (docs/decisions/102). The routes have
 * checked who is signed in; here every invoice is read by id and, for a customer, only if it is
 * theirs (anyone else's is a 404, like a missing one).
 */

export const PAGE_SIZE = 50;
/** A lost dispute's red line, after the amount: where the money came back from. */
function disputeTook(lost: { amount_cents: number; from_credit_cents: number; written_off_cents: number }) {
  const reopened = lost.amount_cents - lost.from_credit_cents - lost.written_off_cents;
  const parts = [
    reopened > 0 ? `${formatCents(reopened)} owed again on the invoice` : null,
    lost.from_credit_cents > 0 ? `${formatCents(lost.from_credit_cents)} taken from credit on file` : null,
    lost.written_off_cents > 0 ? `${formatCents(lost.written_off_cents)} written off with the invoice` : null,
  ].filter((part): part is string => part !== null);
  return parts.join(", ");
}

/** The Billing tab's link to the lost disputes, among its status links. */
export const DISPUTES_LOST = "disputes-lost";
const TAB_STATUSES = ["open", "paid", "void", "uncollectible"] as const satisfies readonly InvoiceStatus[];

const dayFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
export const dayLabel = (day: string | null) => (day ? dayFormat.format(new Date(`${day}T00:00:00Z`)) : "");
export const monthLabel = (month: string) => monthFormat.format(new Date(`${month}T00:00:00Z`));

function encodeCursor(cursor: InvoiceCursor) {
  return `${cursor.due}_${cursor.id}`;
}
function decodeCursor(value: string | null): InvoiceCursor | null {
  if (!value) return null;
  const match = /^(\d{4}-\d{2}-\d{2})_([0-9a-f-]{36})$/.exec(value);
  if (!match || !isUuid(match[2])) return null;
  return { due: match[1], id: match[2] };
}

/** The admin's Billing tab: one status at a time (open first, overdue at the top), paged by key. */
export async function loadBillingTab(url: URL, now = new Date()) {
  const requested = url.searchParams.get("status");
  // "Disputes lost" is a link among the statuses: its list instead of the invoices (decision 118).
  const disputesView = requested === DISPUTES_LOST;
  const status: InvoiceStatus = (TAB_STATUSES as readonly string[]).includes(requested ?? "")
    ? (requested as InvoiceStatus)
    : "open";
  const after = decodeCursor(url.searchParams.get("after"));
  const today = businessToday(now);
  const [db, settings] = await Promise.all([getDb(), getSiteSettings()]);
  const period = currentPeriod(today, settings.billingRules.billingDay);
  const requestedMonth = url.searchParams.get("ledger");
  const ledgerMonth =
    requestedMonth && /^\d{4}-(0[1-9]|1[0-2])$/.test(requestedMonth) ? `${requestedMonth}-01` : monthOf(today);
  const [{ rows, figures: totals }, ledger, overpaid, lost, outsideCatalogue] = await Promise.all([
    readBillingTab(db, { status, after, limit: disputesView ? 0 : PAGE_SIZE + 1, period, today }),
    loadLedgerMonth(db, ledgerMonth),
    loadOverpaid(db),
    listDisputesLost(db, disputesView ? PAGE_SIZE : 0),
    loadPlansOutsideCatalogue(db),
  ]);
  const page = rows.slice(0, PAGE_SIZE);
  const last = page[page.length - 1];
  const next =
    rows.length > PAGE_SIZE && last?.due_on
      ? `?${new URLSearchParams({ status, after: encodeCursor({ due: last.due_on, id: last.id }) })}`
      : null;
  return {
    status: disputesView ? DISPUTES_LOST : status,
    statuses: [
      ...TAB_STATUSES.map((value) => ({ value: value as string, label: INVOICE_STATUS_LABELS[value] })),
      { value: DISPUTES_LOST, label: `Disputes lost (${lost.count})` },
    ],
    disputesLost: disputesView
      ? {
          more: lost.count > lost.rows.length,
          items: lost.rows.map((row) => ({
            id: row.id,
            invoiceId: row.invoice_id,
            number: row.number,
            customerId: row.customer_id,
            customer: row.full_name || row.email,
            amount: formatCents(row.amount_cents),
            // Stripe's fee: the business's cost, shown beside what the bank took (decision 121).
            fee: row.fee_cents ? formatCents(row.fee_cents) : null,
            date: dayLabel(row.reversed_on),
            disputeId: row.stripe_dispute_id,
          })),
        }
      : null,
    month: monthLabel(period),
    totals: {
      invoiced: formatCents(totals.invoiced),
      paid: formatCents(totals.paid),
      open: formatCents(totals.open),
      count: totals.count,
    },
    overdue: totals.overdue,
    // The month's roll-forward from the ledger, and the months before and after it to look at.
    ledger: {
      ...ledger,
      month: monthLabel(ledgerMonth),
      previous: addMonths(ledgerMonth, -1).slice(0, 7),
      following: ledgerMonth < monthOf(today) ? addMonths(ledgerMonth, 1).slice(0, 7) : null,
      exportFrom: ledgerMonth,
      exportTo: lastDayOf(ledgerMonth),
    },
    overpaid,
    outsideCatalogue,
    next,
    invoices: page.map((row) => ({
      id: row.id,
      number: row.number,
      customer: row.full_name || row.email,
      month: monthLabel(row.period_month),
      due: dayLabel(row.due_on),
      overdue: row.status === "open" && row.due_on !== null && row.due_on < today,
      status: INVOICE_STATUS_LABELS[row.status],
      total: formatCents(row.total_cents),
      balance: formatCents(row.status === "open" ? row.total_cents - row.paid_cents : 0),
    })),
  };
}

type InvoiceRow = NonNullable<Awaited<ReturnType<typeof getInvoice>>>;

/** An invoice as both the admin's page and the customer's printable page show it. */
async function invoiceView(invoice: InvoiceRow, today: string) {
  const db = await getDb();
  const [lines, payments, creditNotes, disputesLost, disputes, settings] = await Promise.all([
    listInvoiceLines(db, invoice.id),
    listInvoicePayments(db, invoice.id),
    listCreditNotesOfInvoice(db, invoice.id),
    listDisputesLostOfInvoice(db, invoice.id),
    listDisputesOfInvoice(db, invoice.id),
    getSiteSettings(),
  ]);
  const balance = invoice.status === "open" ? invoice.total_cents - invoice.paid_cents : 0;
  return {
    id: invoice.id,
    number: invoice.number,
    status: invoice.status,
    statusLabel: INVOICE_STATUS_LABELS[invoice.status],
    overdue: invoice.status === "open" && invoice.due_on !== null && invoice.due_on < today,
    month: monthLabel(invoice.period_month),
    issued: dayLabel(invoice.issued_on),
    due: dayLabel(invoice.due_on),
    customer: { id: invoice.customer_id, name: invoice.full_name, email: invoice.email },
    business: { name: settings.businessName, phone: settings.phone, email: settings.email },
    lines: lines.map((line) => ({
      id: line.id,
      description: line.description,
      amount: formatCents(line.amount_cents),
    })),
    total: formatCents(invoice.total_cents),
    // Credit on file that paid part of it, apart from the money (docs/decisions/113).
    creditApplied: invoice.credit_applied_cents > 0 ? formatCents(-invoice.credit_applied_cents) : null,
    paid: formatCents(invoice.paid_cents - invoice.credit_applied_cents),
    refunded: invoice.refunded_cents > 0 ? formatCents(invoice.refunded_cents) : null,
    balance: formatCents(balance),
    balanceCents: balance,
    footer: invoice.footer,
    payments: payments.map((payment) => ({
      id: payment.id,
      method: PAYMENT_METHOD_LABELS[payment.method],
      amount: formatCents(payment.amount_cents),
      refunded: payment.refunded_cents > 0 ? formatCents(payment.refunded_cents) : null,
      refundable: payment.amount_cents - payment.refunded_cents - payment.reversed_cents,
      reversed: payment.reversed_cents > 0 ? formatCents(payment.reversed_cents) : null,
      reversible: paymentParts(payment, invoice).ofInvoice,
      kept: payment.to_credit_cents > 0 ? formatCents(payment.to_credit_cents) : null,
      date: dayLabel(payment.paid_on),
      note: payment.note,
      by: payment.recorded_by_name,
      viaStripe: payment.stripe_payment_intent_id !== null,
      dispute: payment.disputed_at
        ? {
            note: payment.dispute_note,
            date: dayLabel(businessToday(new Date(payment.disputed_at))),
            open: payment.dispute_closed_at === null,
          }
        : null,
      // Each of its disputes with Stripe's fee, open, won or lost (decision 125): the fee is the
      // business's cost whatever the outcome, so the owner sees it where the dispute is.
      disputes: disputes
        .filter((dispute) => dispute.payment_id === payment.id)
        .map((dispute) => ({
          id: dispute.stripe_dispute_id,
          opened: dayLabel(businessToday(new Date(dispute.opened_at))),
          state: dispute.closed_at === null ? "Open" : `Closed: ${dispute.status.replaceAll("_", " ")}`,
          fee: dispute.fee_cents > 0 ? formatCents(dispute.fee_cents) : "None",
        })),
      // Money the customer's bank took back (docs/decisions/118): a red line on the admin's page.
      disputesLost: disputesLost
        .filter((lost) => lost.payment_id === payment.id)
        .map((lost) => ({
          id: lost.id,
          amount: formatCents(lost.amount_cents),
          date: dayLabel(lost.reversed_on),
          disputeId: lost.stripe_dispute_id,
          fee: lost.fee_cents ? formatCents(lost.fee_cents) : null,
          // Where the books took it from (decision 121): the invoice, credit on file, a write-off.
          took: disputeTook(lost),
        })),
    })),
    creditNotes: creditNotes.map((note) => ({
      id: note.id,
      number: note.number,
      amount: formatCents(note.amount_cents),
      date: dayLabel(note.issued_on),
      description: note.description,
      paidOut: paidOutLabel(note.paid_out),
    })),
  };
}
export type InvoiceView = Awaited<ReturnType<typeof invoiceView>>;

/** The admin's invoice page, with a fresh key for each form (a second press reuses it). */
export async function loadAdminInvoice(invoiceId: string, now = new Date()) {
  if (!isUuid(invoiceId)) return null;
  const invoice = await getInvoice(await getDb(), invoiceId);
  if (!invoice) return null;
  const today = businessToday(now);
  const view = await invoiceView(invoice, today);
  // A voided invoice issued again links to the new one.
  const reissued = invoice.reissued_as ? await getInvoice(await getDb(), invoice.reissued_as) : null;
  // "Charge <balance>" to the card on file: with Stripe, on an open invoice with a balance.
  const card =
    isStripeConfigured() && view.balanceCents > 0 ? await cardOnFile(await getDb(), invoice.customer_id) : null;
  return {
    invoice: { ...view, reissuedAs: reissued ? { id: reissued.id, number: reissued.number } : null },
    card,
    forms: {
      paymentKey: randomUUID(),
      refundKey: randomUUID(),
      reversalKey: randomUUID(),
      defaults: { amount: view.balanceCents > 0 ? centsToInput(view.balanceCents) : "", paidOn: today },
    },
  };
}

/** A customer's own invoice (null for a missing one or anyone else's). */
export async function loadCustomerInvoice(invoiceId: string, customerId: string, now = new Date()) {
  if (!isUuid(invoiceId)) return null;
  const invoice = await getCustomerInvoice(await getDb(), invoiceId, customerId);
  if (!invoice || invoice.status === "draft") return null;
  const view = await invoiceView(invoice, businessToday(now));
  // Stripe's disputes and their fees are the business's own affairs: not in the customer's page data.
  return { ...view, payments: view.payments.map((payment) => ({ ...payment, disputes: [], disputesLost: [] })) };
}

/** What the customer's pages offer for paying: Stripe's forms (when connected) and their key. */
export function payOnline() {
  return { stripe: isStripeConfigured(), formKey: randomUUID() };
}

/** The customer's Billing page: what they owe and their invoices. */
export async function loadCustomerBilling(customerId: string, now = new Date()) {
  const db = await getDb();
  const today = businessToday(now);
  const online = payOnline();
  const [{ balance, invoices }, card, creditNotes] = await Promise.all([
    readCustomerBilling(db, customerId, 36),
    online.stripe ? cardOnFile(db, customerId) : null,
    listCreditNotesOfCustomer(db, customerId, CREDIT_NOTES_SHOWN),
  ]);
  return {
    balance: formatCents(Math.max(0, balance)),
    owes: balance > 0,
    // Credit on file (a negative balance): the next invoice uses it first (docs/decisions/113).
    credit: balance < 0 ? formatCents(-balance) : null,
    ...online,
    card,
    invoices: invoices.map((row) => ({
      id: row.id,
      number: row.number,
      month: monthLabel(row.period_month),
      due: dayLabel(row.due_on),
      status: INVOICE_STATUS_LABELS[row.status],
      overdue: row.status === "open" && row.due_on !== null && row.due_on < today,
      total: formatCents(row.total_cents),
      payable: row.status === "open" && row.total_cents > row.paid_cents,
    })),
    // What came back (a cancellation's credit, a refund), each with the visits it gives back.
    creditNotes: creditNotes.map((note) => ({
      id: note.id,
      number: note.number,
      issued: dayLabel(note.issued_on),
      reason: CREDIT_NOTE_REASON_LABELS[note.reason],
      amount: formatCents(note.amount_cents),
      paidOut: paidOutLabel(note.paid_out),
      description: note.description,
      lines: note.lines.map((line) => ({ description: line.description, amount: formatCents(line.amount_cents) })),
    })),
  };
}

/** The customer's Billing page lists their latest credit notes (bounded, decision 053). */
const CREDIT_NOTES_SHOWN = 12;

/** A customer's balance for the admin's customer page. */
export async function customerBalanceLabel(customerId: string) {
  const cents = await customerBalance(await getDb(), customerId);
  return { balance: formatCents(Math.max(0, cents)), owes: cents > 0, credit: cents < 0 ? formatCents(-cents) : null };
}

export type InvoiceActionData = {
  intent: InvoiceIntent | null;
  result?: SubmissionResult<string[]>;
  toast: { type: "error"; message: string; description: string };
};

function refuse(
  intent: InvoiceIntent | null,
  status: number,
  description: string,
  result?: SubmissionResult<string[]>,
) {
  return json<InvoiceActionData>(
    { intent, result, toast: { type: "error", message: "Error", description } },
    { status, headers: { "Cache-Control": "private, no-store" } },
  );
}

const TOASTS: Record<InvoiceIntent, string> = {
  "record-payment": "Payment recorded",
  refund: "Refund recorded",
  "reverse-payment": "Payment reversed",
  void: "Invoice voided",
  uncollectible: "Invoice written off",
  "charge-card": "Card charged",
  reissue: "Invoice issued again",
};

/**
 * The invoice page's forms. The caller has checked that an admin is signed in with their second
 * step. Bad input answers 400 with the fields' messages; a missing invoice or payment 404; a
 * payment or void the invoice's state forbids 409; nothing is stored on any refusal.
 */
/** A form with no fields (Void, Mark uncollectible): a refusal is its one form-level message. */
const formErrorsOnly = {
  reply: (options?: { formErrors?: string[] }): SubmissionResult<string[]> => ({
    status: "error",
    error: { "": options?.formErrors ?? [] },
  }),
};

export async function handleInvoiceAction(
  formData: FormData,
  context: { invoiceId: string; adminId: string; now?: Date },
) {
  const now = context.now ?? new Date();
  const rawIntent = formData.get("intent");
  const intent = isInvoiceIntent(rawIntent) ? rawIntent : null;
  if (!intent) return refuse(null, 400, "Unknown action");
  if (!isUuid(context.invoiceId)) return refuse(intent, 404, "We could not find that invoice.");
  const db = await getDb();
  const run = async (
    submission: { reply: (options?: { formErrors?: string[] }) => SubmissionResult<string[]> },
    change: () => Promise<unknown>,
  ) => {
    let said: unknown;
    try {
      said = await change();
    } catch (error) {
      if (!(error instanceof BillingError)) throw error;
      log.info("billing.refused", { intent, invoiceId: context.invoiceId, status: error.status });
      return refuse(intent, error.status, error.message, submission.reply({ formErrors: [error.message] }));
    }
    log.info("billing.changed", { intent, invoiceId: context.invoiceId, adminId: context.adminId });
    // After the change's transaction: "Pay now" pages open for a balance the invoice no longer has are expired (decision 111).
    await expireStaleCheckouts(db, context.invoiceId, now);
    return redirectWithSuccess(`/admin-dashboard/billing/${context.invoiceId}`, {
      message: "Success",
      // A change may say more than its intent's word (a card charge: still processing).
      description: typeof said === "string" ? said : TOASTS[intent],
    });
  };

  switch (intent) {
    case "record-payment": {
      const submission = parseWithZod(formData, { schema: recordPaymentSchema });
      if (submission.status !== "success") return refuse(intent, 400, "Please check the form", submission.reply());
      const value = submission.value;
      return run(submission, () =>
        recordPayment(db, {
          invoiceId: context.invoiceId,
          method: value.method,
          amountCents: value.amount,
          paidOn: value.paidOn,
          note: value.note || null,
          recordedBy: context.adminId,
          idempotencyKey: value.key,
          now,
        }),
      );
    }
    case "reverse-payment":
    case "refund": {
      // The same form (a payment, an amount, a note): a payment not of this invoice is a 404.
      const submission = parseWithZod(formData, { schema: refundSchema });
      if (submission.status !== "success") {
        const result = submission.reply();
        if (result.error?.paymentId) return refuse(intent, 404, "We could not find that payment.", result);
        return refuse(intent, 400, "Please check the form", result);
      }
      const value = submission.value;
      const change = {
        invoiceId: context.invoiceId,
        paymentId: value.paymentId,
        amountCents: value.amount,
        note: value.note || null,
        recordedBy: context.adminId,
        idempotencyKey: value.key,
        now,
      };
      return run(submission, () =>
        intent === "refund"
          ? refundPayment(db, { ...change, refundedOn: businessToday(now) })
          : reversePayment(db, { ...change, reversedOn: businessToday(now) }),
      );
    }
    case "void":
      return run(formErrorsOnly, () => voidInvoice(db, { invoiceId: context.invoiceId, now }));
    case "uncollectible":
      return run(formErrorsOnly, () => markInvoiceUncollectible(db, { invoiceId: context.invoiceId, now }));
    case "charge-card":
      return run(formErrorsOnly, () => chargeCardNow(db, { invoiceId: context.invoiceId, now }));
    case "reissue": {
      // The new invoice's page is where the admin goes next.
      let created: string;
      try {
        created = await reissueInvoice(db, { invoiceId: context.invoiceId, now });
      } catch (error) {
        if (!(error instanceof BillingError)) throw error;
        return refuse(intent, error.status, error.message, formErrorsOnly.reply({ formErrors: [error.message] }));
      }
      log.info("billing.changed", { intent, invoiceId: context.invoiceId, adminId: context.adminId });
      return redirectWithSuccess(`/admin-dashboard/billing/${created}`, {
        message: "Success",
        description: TOASTS.reissue,
      });
    }
  }
}
