import { afterInvoiceSettled } from "./payment-resume.server";
import { addCreditApplied, creditsOnFile, listOpenInvoicesOwing, lockCustomerMoney } from "~/models/ledger.server";
import type { Db } from "~/utils/db.server";

/**
 * Credit on file (docs/decisions/113): money a customer has with the business beyond what their
 * invoices owe (a credit note kept as credit, an overpayment, an invoice whose credits were more
 * than its charges). It is always used at once on what is owed, oldest open invoice first, and
 * otherwise by the next invoice ("Credit from previous invoices"): a customer never has credit on
 * file and an invoice being charged at the same time.
 *
 * Runs inside the caller's transaction, after the event that made the credit or the invoice.
 * `credited` names every invoice credit was applied to (its balance changed): once that
 * transaction has committed, the caller expires their "Pay now" pages (expireStaleCheckoutsOf,
 * docs/decisions/111).
 */
export async function applyCreditOnFile(trx: Db, customerIds: readonly string[], now: Date) {
  const none = { applied: 0, settled: [] as string[], credited: [] as string[] };
  if (customerIds.length === 0) return none;
  const candidates = await creditsOnFile(trx, customerIds);
  if (candidates.size === 0) return none;
  // Two transactions using the same credit (the run and a refund paid out of it) take turns; the
  // credit is read again once the lock is held.
  await lockCustomerMoney(trx, [...candidates.keys()]);
  const credits = await creditsOnFile(trx, [...candidates.keys()]);
  let applied = 0;
  const settled: string[] = [];
  const credited: string[] = [];
  for (const [customerId, credit] of credits) {
    let left = credit;
    for (const invoice of await listOpenInvoicesOwing(trx, customerId)) {
      if (left <= 0) break;
      const cents = Math.min(left, invoice.total_cents - invoice.paid_cents);
      if (await addCreditApplied(trx, invoice, cents, now)) settled.push(invoice.id);
      credited.push(invoice.id);
      left -= cents;
      applied += cents;
    }
  }
  // A plan held for an invoice the credit paid is released, as after any payment (decision 104).
  for (const invoiceId of settled) await afterInvoiceSettled(trx, { invoiceId, now });
  return { applied, settled, credited };
}
