import { Link } from "@remix-run/react";
import type { InvoiceView } from "./billing-pages.server";
import {
  BillingDocument,
  documentCellClass as cellClass,
  documentMoneyClass as moneyClass,
  partyText,
} from "./billing-document";
import { linkClass } from "~/components/ui-classes";

/**
 * An invoice as a document, in the frame every billing document shares (BillingDocument): who it
 * is from and to, its lines, total, what paid it (credit on file apart from money), what was
 * refunded, its balance, its credit notes (each a link to its own page, where the page gives
 * `creditNoteHref`) and the owner's footer. The customer's printable page and the admin's invoice
 * page both show it.
 */
type InvoiceData = Omit<InvoiceView, "balanceCents"> & { balanceCents?: number };

export function InvoiceDocument({
  invoice,
  creditNoteHref,
}: {
  invoice: InvoiceData;
  creditNoteHref?: (id: string) => string;
}) {
  return (
    <BillingDocument
      headingId="invoice-heading"
      title={`Invoice ${invoice.number}`}
      subtitle={invoice.month}
      business={invoice.business}
      facts={[
        { label: "Billed to", value: partyText(invoice.customer) },
        { label: "Status", value: `${invoice.statusLabel}${invoice.overdue ? " (overdue)" : ""}` },
        { label: "Issued", value: invoice.issued },
        { label: "Due", value: invoice.due },
      ]}
      footer={invoice.footer}
    >
      <table className="mt-6 w-full text-left text-slate-900 dark:text-slate-100">
        <caption className="sr-only">Invoice lines</caption>
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-600">
            <th scope="col" className={cellClass}>
              Description
            </th>
            <th scope="col" className="py-2 text-right">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line) => (
            <tr key={line.id} className="border-b border-slate-200 dark:border-slate-700">
              <td className={cellClass}>{line.description}</td>
              <td className={moneyClass}>{line.amount}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" className={cellClass}>
              Total
            </th>
            <td className={`${moneyClass} font-semibold`}>{invoice.total}</td>
          </tr>
          {invoice.creditApplied ? (
            <tr>
              <th scope="row" className={cellClass}>
                Credit from previous invoices
              </th>
              <td className={moneyClass} data-testid="invoice-credit-applied">
                {invoice.creditApplied}
              </td>
            </tr>
          ) : null}
          <tr>
            <th scope="row" className={cellClass}>
              Paid
            </th>
            <td className={moneyClass}>{invoice.paid}</td>
          </tr>
          {invoice.refunded ? (
            <tr>
              <th scope="row" className={cellClass}>
                Refunded
              </th>
              <td className={moneyClass} data-testid="invoice-refunded">
                {invoice.refunded}
              </td>
            </tr>
          ) : null}
          <tr>
            <th scope="row" className={cellClass}>
              Balance due
            </th>
            <td className={`${moneyClass} font-bold`} data-testid="invoice-balance">
              {invoice.balance}
            </td>
          </tr>
        </tfoot>
      </table>
      {invoice.creditNotes.length > 0 ? (
        <section aria-labelledby="credit-notes-heading" className="mt-6">
          <h3 id="credit-notes-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
            Credit notes
          </h3>
          <ul className="mt-2 space-y-1 text-slate-800 dark:text-slate-100">
            {invoice.creditNotes.map((note) => (
              <li key={note.id}>
                {creditNoteHref ? (
                  <Link to={creditNoteHref(note.id)} className={linkClass}>
                    Credit note {note.number}
                  </Link>
                ) : (
                  `Credit note ${note.number}`
                )}{" "}
                of {note.date}: {note.description}, {note.amount} ({note.paidOut})
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </BillingDocument>
  );
}
