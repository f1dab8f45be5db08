import { dayLabel } from "./billing-pages.server";
import { CREDIT_NOTE_REASON_LABELS, paidOutLabel } from "./credit-note-labels";
import { formatCents } from "./money";
import { getSiteSettings } from "~/content/content.server";
import { getCreditNote } from "~/models/ledger.server";
import { getDb } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

/**
 * Credit notes as documents (docs/decisions/113, 118): one credit note's page and PDF for its
 * customer and for the admin, and the customer's list of them. A customer reads only their own
 * (anyone else's is missing: a 404, like an id that does not exist).
 */

type CreditNoteRow = NonNullable<Awaited<ReturnType<typeof getCreditNote>>>;

async function creditNoteView(note: CreditNoteRow) {
  const settings = await getSiteSettings();
  return {
    id: note.id,
    number: note.number,
    reason: CREDIT_NOTE_REASON_LABELS[note.reason],
    issued: dayLabel(note.issued_on),
    description: note.description,
    amount: formatCents(note.amount_cents),
    paidOut: paidOutLabel(note.paid_out),
    // How the money comes back, said once on the page and the PDF.
    howPaid:
      note.paid_out === "refund"
        ? "Paid back as a refund of your payment."
        : "Kept as credit on file: what you owe next uses it first.",
    customer: { id: note.customer_id, name: note.full_name, email: note.email },
    business: { name: settings.businessName, phone: settings.phone, email: settings.email },
    // A draft invoice is not the customer's to see; the credit note still is.
    invoice:
      note.invoice_id && note.invoice_number && note.invoice_status !== "draft"
        ? { id: note.invoice_id, number: note.invoice_number }
        : null,
  };
}
export type CreditNoteView = Awaited<ReturnType<typeof creditNoteView>>;

/** The customer's own credit note; null for a missing one or anyone else's. */
export async function loadCustomerCreditNote(creditNoteId: string, customerId: string) {
  if (!isUuid(creditNoteId)) return null;
  const note = await getCreditNote(await getDb(), creditNoteId);
  if (!note || note.customer_id !== customerId) return null;
  return creditNoteView(note);
}

/** Any credit note, for the admin; null for a missing one. */
export async function loadAdminCreditNote(creditNoteId: string) {
  if (!isUuid(creditNoteId)) return null;
  const note = await getCreditNote(await getDb(), creditNoteId);
  return note ? creditNoteView(note) : null;
}
