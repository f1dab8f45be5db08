import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import PDFDocument from "pdfkit";
import type { InvoiceView } from "./billing-pages.server";

/**
 * An invoice as a PDF (pdfkit, docs/decisions/102), streamed: pdfkit writes each chunk as it is
 * made into a stream the response reads, so a request holds one invoice's few kilobytes at a
 * time, never a whole file in a buffer. The standard Helvetica font needs no font file; it has
 * no "−" sign, so amounts use a hyphen-minus here.
 */
export function invoicePdfStream(invoice: InvoiceView): ReadableStream<Uint8Array> {
  const doc = new PDFDocument({ size: "LETTER", margin: 54, info: { Title: `Invoice ${invoice.number}` } });
  const out = new PassThrough();
  doc.pipe(out);
  const text = (value: string) => value.replace(/−/g, "-");

  doc.fontSize(20).font("Helvetica-Bold").text(`Invoice ${invoice.number}`);
  doc.fontSize(11).font("Helvetica").text(invoice.month);
  doc.moveDown();
  doc.font("Helvetica-Bold").text(invoice.business.name);
  doc.font("Helvetica").text(invoice.business.phone).text(invoice.business.email);
  doc.moveDown();
  const billedTo = invoice.customer.name
    ? `${invoice.customer.name} (${invoice.customer.email})`
    : invoice.customer.email;
  doc.text(`Billed to: ${billedTo}`);
  doc.text(`Issued: ${invoice.issued}    Due: ${invoice.due}`);
  doc.text(`Status: ${invoice.statusLabel}${invoice.overdue ? " (overdue)" : ""}`);
  doc.moveDown();

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const row = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica");
    doc.text(text(label), left, y, { width: width - 110 });
    const after = doc.y;
    doc.text(text(amount), left + width - 100, y, { width: 100, align: "right" });
    doc.y = Math.max(after, doc.y);
    doc.x = left;
  };
  row("Description", "Amount", true);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.3);
  for (const line of invoice.lines) row(line.description, line.amount);
  doc.moveDown(0.3);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.3);
  row("Total", invoice.total, true);
  if (invoice.creditApplied) row("Credit from previous invoices", invoice.creditApplied);
  row("Paid", invoice.paid);
  if (invoice.refunded) row("Refunded", invoice.refunded);
  row("Balance due", invoice.balance, true);
  for (const note of invoice.creditNotes) {
    row(`Credit note ${note.number} of ${note.date}: ${note.description} (${note.paidOut})`, note.amount);
  }
  if (invoice.footer) {
    doc.moveDown(2);
    doc.font("Helvetica").fontSize(10).text(text(invoice.footer), left, doc.y, { width });
  }
  doc.end();
  return createReadableStreamFromReadable(out);
}
