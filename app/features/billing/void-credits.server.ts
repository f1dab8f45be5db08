import { businessToday } from "~/features/visits/visit-dates";
import { addMonths, monthOf } from "./billing-rules";
import { firstInvoicedMonth, listMonthBilling, listVisitCreditLines } from "~/models/invoice-run.server";
import { insertCreditNote, insertCreditNoteLines } from "~/models/ledger.server";
import { listCreditAdjustmentsOn } from "~/models/plan-adjustment.server";
import type { Db } from "~/utils/db.server";

/**
 * What a void gives back (docs/decisions/120). A void forgives what the customer owed on the
 * invoice; it never takes away what the business owed them. So the invoice's credits (visits not
 * made: skips, pauses, the business's own cancellations, weather, holds; a plan change's money
 * back) come back at once, as one credit note (reason "invoice_void", kept as credit on file,
 * key `void:<invoice>`) whose lines name the same visits and adjustments. A positive adjustment
 * (an upgrade owed) is forgiven with the invoice. Credit on file that paid part of the invoice is
 * the customer's again by the ledger itself (the void's entry), not by this note.
 *
 * A visit's credit stays within what its month is billed (decision 113): a month whose own
 * invoice is void has nothing left to give back. Runs in the void's transaction, after the
 * invoice is marked void. Returns the cents given back.
 */
export async function giveBackVoidedCredits(
  trx: Db,
  invoice: { id: string; customer_id: string; number: string },
  now: Date,
): Promise<number> {
  const [visits, adjustments] = await Promise.all([
    listVisitCreditLines(trx, invoice.id),
    listCreditAdjustmentsOn(trx, invoice.id),
  ]);
  if (visits.length === 0 && adjustments.length === 0) return 0;

  const months = visits.map((visit) => monthOf(visit.slot)).sort();
  const planIds = [...new Set(visits.map((visit) => visit.plan_id))];
  const billed =
    months.length === 0 ? [] : await listMonthBilling(trx, planIds, months[0], addMonths(months[months.length - 1], 1));
  const first = await firstInvoicedMonth(trx);
  // What each month may still give: its bill (with the adjustments given back now) less its credits.
  const left = new Map(billed.map((row) => [`${row.plan_id} ${row.month}`, row.billed - row.credited]));
  for (const adjustment of adjustments) {
    const key = `${adjustment.plan_id} ${adjustment.month}`;
    if (left.has(key)) left.set(key, left.get(key)! + adjustment.amount_cents);
  }
  const visitLines = visits.flatMap((visit) => {
    const month = monthOf(visit.slot);
    const key = `${visit.plan_id} ${month}`;
    // A month before billing began here was billed by hand: its credit stands as it was given.
    const room = left.get(key) ?? (first !== null && month < first ? visit.cents : 0);
    const cents = Math.min(visit.cents, Math.max(0, room));
    if (cents <= 0) return [];
    left.set(key, room - cents);
    return [
      {
        planId: visit.plan_id,
        month,
        slot: visit.slot,
        visitId: visit.visit_id,
        description: visit.description,
        amountCents: cents,
      },
    ];
  });
  const adjustmentLines = adjustments.map((adjustment) => ({
    planId: adjustment.plan_id,
    month: adjustment.month,
    slot: adjustment.month,
    visitId: null,
    description: adjustment.description,
    amountCents: -adjustment.amount_cents,
    adjustmentId: adjustment.id,
  }));
  const lines = [...visitLines, ...adjustmentLines];
  const cents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  if (cents <= 0) return 0;
  const note = await insertCreditNote(trx, {
    customerId: invoice.customer_id,
    invoiceId: invoice.id,
    reason: "invoice_void",
    paidOut: "credit",
    amountCents: cents,
    issuedOn: businessToday(now),
    description: `The credits of voided invoice ${invoice.number}, given back`,
    refundId: null,
    idempotencyKey: `void:${invoice.id}`,
  });
  if (!note) return 0;
  await insertCreditNoteLines(trx, note.id, lines);
  return cents;
}
