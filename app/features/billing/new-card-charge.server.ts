import { collectInvoice } from "./payment-recovery.server";
import { UNREACHABLE } from "./stripe-charge.server";
import type { InvoiceDueNow } from "~/models/invoice-collection.server";
import type { Db } from "~/utils/db.server";

/**
 * A new card pays what is due at once (docs/decisions/107). A customer told "your card was
 * declined, update your card" who does so expects the balance paid then, not at the next
 * retry days later; the Billing page promises "Each invoice is charged to this card on its due
 * date", and for an invoice past due that day is today.
 *
 * The change of card is seen once (stripe_customers locked while compared), so of the way back
 * from Checkout and the setup webhook only one charges. The invoices are marked in the card's own
 * transaction with a try due today: if a charge cannot be made now (Stripe out of reach, more
 * invoices than are charged in one request) the hourly collection makes it within the hour.
 */

/** At most this many invoices are charged in the request that stored the card; the rest within the hour. */
export const NEW_CARD_CHARGES_AT_ONCE = 6;

export type NewCardCharge = {
  number: string;
  amountCents: number;
  /** paid; failed (the card's reason); pending (processing at the bank, or Stripe out of reach: the job tries again). */
  result: "paid" | "failed" | "pending";
  reason: string | null;
};

/**
 * After the card's transaction (syncSetupIntent marked `due` in it): charges them, the oldest due
 * first, each as the collection job would.
 */
export async function chargeNewCard(db: Db, due: readonly InvoiceDueNow[], now: Date): Promise<NewCardCharge[]> {
  const charges: NewCardCharge[] = [];
  for (const invoice of due.slice(0, NEW_CARD_CHARGES_AT_ONCE)) {
    const outcome = await collectInvoice(db, invoice, now);
    const amountCents = invoice.total_cents - invoice.paid_cents;
    if (outcome?.kind === "succeeded")
      charges.push({ number: invoice.number, amountCents, result: "paid", reason: null });
    else if (outcome?.kind === "failed" && outcome.reason !== UNREACHABLE) {
      charges.push({ number: invoice.number, amountCents, result: "failed", reason: outcome.reason });
    } else charges.push({ number: invoice.number, amountCents, result: "pending", reason: null });
  }
  return charges;
}
