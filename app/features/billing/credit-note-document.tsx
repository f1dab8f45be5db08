import { Link } from "@remix-run/react";
import {
  BillingDocument,
  documentCellClass as cellClass,
  documentMoneyClass as moneyClass,
  partyText,
} from "./billing-document";
import type { CreditNoteView } from "./credit-notes.server";
import { linkClass } from "~/components/ui-classes";

/**
 * A credit note as a document, in the frame every billing document shares (BillingDocument): to
 * whom, when, for which invoice (a link where the page gives `invoiceHref`), why, how much and how
 * it is paid back (a refund, or credit on file).
 */
export function CreditNoteDocument({
  note,
  invoiceHref,
}: {
  note: CreditNoteView;
  invoiceHref?: (id: string) => string;
}) {
  const invoice = note.invoice;
  return (
    <BillingDocument
      headingId="credit-note-heading"
      title={`Credit note ${note.number}`}
      subtitle={note.reason}
      business={note.business}
      facts={[
        { label: "Credited to", value: partyText(note.customer) },
        { label: "Issued", value: note.issued },
        {
          label: "Invoice",
          value: !invoice ? (
            "None"
          ) : invoiceHref ? (
            <Link to={invoiceHref(invoice.id)} className={linkClass}>
              {invoice.number}
            </Link>
          ) : (
            invoice.number
          ),
        },
        { label: "Paid back as", value: note.paidOut },
      ]}
    >
      <table className="mt-6 w-full text-left text-slate-900 dark:text-slate-100">
        <caption className="sr-only">What is credited</caption>
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
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <td className={cellClass}>{note.description}</td>
            <td className={moneyClass}>{note.amount}</td>
          </tr>
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" className={cellClass}>
              Total credited
            </th>
            <td className={`${moneyClass} font-bold`} data-testid="credit-note-total">
              {note.amount}
            </td>
          </tr>
        </tfoot>
      </table>
      <p className="mt-4 text-slate-800 dark:text-slate-100">{note.howPaid}</p>
    </BillingDocument>
  );
}
