import { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { stringify } from "csv-stringify";
import type { LedgerEntryKind } from "../../../db/enums";
import { addMonths, monthOf } from "./billing-rules";
import { PAYMENT_METHOD_LABELS } from "./billing-schema";
import { isCalendarDay } from "~/features/visits/visit-dates";
import { formatCents } from "./money";
import {
  creditsOnFile,
  listLedgerExportBatch,
  listOverpaidPayments,
  readLedgerMonth,
  type LedgerExportRow,
} from "~/models/ledger.server";
import { addDays } from "~/features/visits/visit-dates";
import type { Db } from "~/utils/db.server";
import { keysetBatches } from "~/utils/keyset-batches.server";
import type { PaymentMethod } from "../../../db/enums";

/**
 * The accountant's view of the customer ledger (issue 34 item 11, docs/decisions/113): the
 * entries of a date range as CSV, streamed in keyset batches (a year of 100k customers is over a
 * million rows; memory stays one batch), and the month's roll-forward on the Billing tab.
 */

export const LEDGER_KIND_LABELS: Record<LedgerEntryKind, string> = {
  invoice: "Invoice",
  invoice_void: "Invoice voided",
  write_off: "Written off",
  payment: "Payment",
  refund: "Refund",
  credit_note: "Credit note",
  payment_reversed: "Payment reversed",
  dispute_lost: "Dispute lost",
  tip: "Tip for staff",
  tip_payment: "Tip paid by card",
  tip_void: "Tip voided",
};

const EXPORT_BATCH = 1000;
/** The longest range one export covers: two years. */
export const LEDGER_EXPORT_MAX_DAYS = 731;

/**
 * The range asked for (`from`, `to`, both days included), by default the month of `today`; a bad
 * or reversed range, or one over two years, is an error to show.
 */
export function parseExportRange(
  url: URL,
  today: string,
): { from: string; to: string; until: string } | { error: string } {
  const rawFrom = url.searchParams.get("from");
  const rawTo = url.searchParams.get("to");
  if ((rawFrom && !isCalendarDay(rawFrom)) || (rawTo && !isCalendarDay(rawTo)))
    return { error: "Enter the dates as YYYY-MM-DD." };
  const from = rawFrom || monthOf(today);
  const to = rawTo || addDays(addMonths(monthOf(today), 1), -1);
  if (to < from) return { error: "The first day must come before the last." };
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > LEDGER_EXPORT_MAX_DAYS) return { error: "Export at most two years at a time." };
  return { from, to, until: addDays(to, 1) };
}

/**
 * A text cell a spreadsheet would read as a formula (=, +, -, @, a tab or a return first) is
 * neutralised with a leading apostrophe (OWASP's CSV injection advice). Amounts are numbers the
 * export makes itself and stay numbers.
 */
export function safeCell(value: string | null): string {
  if (!value) return "";
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const dollars = (cents: number) =>
  `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`;

function exportRecord(row: LedgerExportRow): string[] {
  const method = row.method ? (PAYMENT_METHOD_LABELS[row.method as PaymentMethod] ?? row.method) : "";
  return [
    row.occurred_on,
    safeCell(row.full_name ? `${row.full_name} <${row.email}>` : row.email),
    LEDGER_KIND_LABELS[row.kind],
    safeCell(row.credit_note_number ?? row.invoice_number),
    dollars(row.amount_cents),
    safeCell(row.kind === "payment" || row.kind === "refund" ? method : ""),
    safeCell(row.kind === "refund" ? row.stripe_refund_id : row.stripe_payment_intent_id),
  ];
}

export const LEDGER_EXPORT_HEADER = ["Date", "Customer", "Type", "Document", "Amount", "Method", "Stripe id"];

/** The entries of [from, to] as a CSV byte stream, read a batch at a time as it is sent. */
export function ledgerCsvStream(
  db: Db,
  range: { from: string; until: string },
  options: { signal?: AbortSignal; batchSize?: number } = {},
) {
  const batchSize = options.batchSize ?? EXPORT_BATCH;
  const batches = keysetBatches(
    (after: { day: string; id: string } | null) => listLedgerExportBatch(db, range, after, batchSize),
    { batchSize, keyOf: (last) => ({ day: last.occurred_on, id: String(last.id) }), signal: options.signal },
  );
  async function* records() {
    yield LEDGER_EXPORT_HEADER;
    for await (const batch of batches) for (const row of batch) yield exportRecord(row);
  }
  const csv = Readable.from(records()).pipe(stringify({ record_delimiter: "\r\n" }));
  return createReadableStreamFromReadable(csv);
}

export type LedgerMonthView = {
  rows: { label: string; amount: string }[];
  opening: string;
  closing: string;
};

/**
 * The month's roll-forward, to the cent: the balance all customers owed at its start, plus what was
 * invoiced and refunded, less what was voided, credited, collected and written off, is the balance
 * at its end (negative: credit on file).
 */
export async function loadLedgerMonth(db: Db, month: string): Promise<LedgerMonthView> {
  const { opening, byKind } = await readLedgerMonth(db, month);
  const cents = (kind: LedgerEntryKind) => byKind.get(kind)?.cents ?? 0;
  const rows: { label: string; cents: number }[] = [
    { label: "Invoiced", cents: cents("invoice") },
    { label: "Voided", cents: cents("invoice_void") },
    { label: "Credit notes", cents: cents("credit_note") },
    { label: "Payments", cents: cents("payment") },
    { label: "Refunds paid out", cents: cents("refund") },
    { label: "Payments reversed and disputes lost", cents: cents("payment_reversed") + cents("dispute_lost") },
    { label: "Written off", cents: cents("write_off") },
    // Tips are the technicians' money, not the business's revenue: their own lines (decision 131).
    { label: "Tips for staff", cents: cents("tip") },
    { label: "Tips paid by card", cents: cents("tip_payment") },
    { label: "Tips voided", cents: cents("tip_void") },
  ];
  const closing = opening + rows.reduce((sum, row) => sum + row.cents, 0);
  return {
    opening: formatCents(opening),
    rows: rows.map((row) => ({ label: row.label, amount: formatCents(row.cents) })),
    closing: formatCents(closing),
  };
}

const OVERPAID_LIMIT = 20;

/** "Overpaid" on the Billing tab: money that came beyond what was owed, kept as credit on file. */
export async function loadOverpaid(db: Db) {
  const payments = await listOverpaidPayments(db, OVERPAID_LIMIT + 1);
  // Only what is still on file: an overpayment that paid a later invoice is spent.
  const credits = await creditsOnFile(
    db,
    payments.map((row) => row.customer_id),
  );
  const rows = payments.flatMap((row) => {
    const left = Math.min(row.to_credit_cents - row.refunded_cents, credits.get(row.customer_id) ?? 0);
    return left > 0 ? [{ ...row, left }] : [];
  });
  return {
    more: payments.length > OVERPAID_LIMIT,
    items: rows.slice(0, OVERPAID_LIMIT).map((row) => ({
      id: row.id,
      invoiceId: row.invoice_id,
      number: row.number,
      customer: row.full_name || row.email,
      customerId: row.customer_id,
      beyond: formatCents(row.left),
      paid: formatCents(row.amount_cents),
      date: row.paid_on,
    })),
  };
}
export type Overpaid = Awaited<ReturnType<typeof loadOverpaid>>;
