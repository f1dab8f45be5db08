import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import PDFDocument from "pdfkit";
import type { DocumentBusiness } from "./billing-document";

/**
 * The frame every billing document's PDF shares (an invoice, a credit note; docs/decisions/102,
 * 118), streamed with pdfkit: each chunk goes to the response as it is made, so a request holds one
 * document's few kilobytes at a time, never a whole file in a buffer. The title, subtitle, who it is
 * from, its facts (one line each), then its body's rows of a label and an amount, and the footer.
 * The standard Helvetica font needs no font file; it has no "−" sign, so amounts use a hyphen-minus.
 */
export type PdfFrame = {
  title: string;
  subtitle: string;
  business: DocumentBusiness;
  facts: readonly string[];
  footer?: string | null;
};

/** What a document's body draws with: a row of a label and an amount, a rule, a little space. */
export type PdfBody = {
  row(label: string, amount: string, bold?: boolean): void;
  rule(): void;
};

export function billingPdfStream(frame: PdfFrame, body: (pdf: PdfBody) => void): ReadableStream<Uint8Array> {
  const doc = new PDFDocument({ size: "LETTER", margin: 54, info: { Title: frame.title } });
  const out = new PassThrough();
  doc.pipe(out);
  const text = (value: string) => value.replace(/−/g, "-");

  doc.fontSize(20).font("Helvetica-Bold").text(text(frame.title));
  doc.fontSize(11).font("Helvetica").text(text(frame.subtitle));
  doc.moveDown();
  doc.font("Helvetica-Bold").text(frame.business.name);
  doc.font("Helvetica").text(frame.business.phone).text(frame.business.email);
  doc.moveDown();
  for (const fact of frame.facts) doc.text(text(fact));
  doc.moveDown();

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  body({
    row(label, amount, bold = false) {
      const y = doc.y;
      doc.font(bold ? "Helvetica-Bold" : "Helvetica");
      doc.text(text(label), left, y, { width: width - 110 });
      const after = doc.y;
      doc.text(text(amount), left + width - 100, y, { width: 100, align: "right" });
      doc.y = Math.max(after, doc.y);
      doc.x = left;
    },
    rule() {
      doc
        .moveTo(left, doc.y)
        .lineTo(left + width, doc.y)
        .stroke();
      doc.moveDown(0.3);
    },
  });
  if (frame.footer) {
    doc.moveDown(2);
    doc.font("Helvetica").fontSize(10).text(text(frame.footer), left, doc.y, { width });
  }
  doc.end();
  return createReadableStreamFromReadable(out);
}
