import type { InvoiceView } from "./billing-pages.server";
import { partyText } from "./billing-document";
import { billingPdfStream } from "./billing-document-pdf.server";

/** An invoice as a PDF (docs/decisions/102), in the billing documents' frame, streamed. */
export function invoicePdfStream(invoice: InvoiceView): ReadableStream<Uint8Array> {
  return billingPdfStream(
    {
      title: `Invoice ${invoice.number}`,
      subtitle: invoice.month,
      business: invoice.business,
      facts: [
        `Billed to: ${partyText(invoice.customer)}`,
        `Issued: ${invoice.issued}    Due: ${invoice.due}`,
        `Status: ${invoice.statusLabel}${invoice.overdue ? " (overdue)" : ""}`,
      ],
      footer: invoice.footer,
    },
    (pdf) => {
      pdf.row("Description", "Amount", true);
      pdf.rule();
      for (const line of invoice.lines) pdf.row(line.description, line.amount);
      pdf.rule();
      pdf.row("Total", invoice.total, true);
      if (invoice.creditApplied) pdf.row("Credit from previous invoices", invoice.creditApplied);
      pdf.row("Paid", invoice.paid);
      if (invoice.refunded) pdf.row("Refunded", invoice.refunded);
      pdf.row("Balance due", invoice.balance, true);
      for (const note of invoice.creditNotes) {
        pdf.row(`Credit note ${note.number} of ${note.date}: ${note.description} (${note.paidOut})`, note.amount);
      }
    },
  );
}
