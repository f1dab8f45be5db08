import { partyText } from "./billing-document";
import { billingPdfStream } from "./billing-document-pdf.server";
import type { CreditNoteView } from "./credit-notes.server";

/** A credit note as a PDF (docs/decisions/118), in the billing documents' frame, streamed. */
export function creditNotePdfStream(note: CreditNoteView): ReadableStream<Uint8Array> {
  return billingPdfStream(
    {
      title: `Credit note ${note.number}`,
      subtitle: note.reason,
      business: note.business,
      facts: [
        `Credited to: ${partyText(note.customer)}`,
        `Issued: ${note.issued}`,
        `Invoice: ${note.invoice?.number ?? "None"}`,
        `Paid back as: ${note.paidOut}`,
      ],
      footer: note.howPaid,
    },
    (pdf) => {
      pdf.row("Description", "Amount", true);
      pdf.rule();
      pdf.row(note.description, note.amount);
      pdf.rule();
      pdf.row("Total credited", note.amount, true);
    },
  );
}
