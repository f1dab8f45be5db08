import type { InvoiceView } from "./billing-pages.server";

/**
 * An invoice as a document: who it is from and to, its lines, total, what paid it (credit on file
 * apart from money), what was refunded, its balance, its credit notes and the owner's footer. The customer's printable page and the admin's invoice page both show it;
 * it prints on its own (the site's header and footer are hidden in print by app/tailwind.css).
 * A long e-mail address breaks rather than widen a phone's page.
 */
type InvoiceData = Omit<InvoiceView, "balanceCents"> & { balanceCents?: number };

const cellClass = "py-2 pr-4 align-top";
const moneyClass = "py-2 text-right align-top tabular-nums";

export function InvoiceDocument({ invoice }: { invoice: InvoiceData }) {
  return (
    <article
      aria-labelledby="invoice-heading"
      className="rounded-2xl border border-slate-300 p-6 shadow-sm print:border-0 print:shadow-none dark:border-slate-600"
    >
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="invoice-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
            Invoice {invoice.number}
          </h2>
          <p className="text-slate-700 dark:text-slate-300">{invoice.month}</p>
        </div>
        <div className="break-words text-right text-slate-800 dark:text-slate-100">
          <p className="font-semibold">{invoice.business.name}</p>
          <p>{invoice.business.phone}</p>
          <p>{invoice.business.email}</p>
        </div>
      </header>
      <dl className="mt-4 grid gap-x-6 gap-y-1 break-words text-slate-800 sm:grid-cols-2 dark:text-slate-100">
        <div>
          <dt className="inline font-semibold">Billed to: </dt>
          <dd className="inline">
            {invoice.customer.name ? `${invoice.customer.name} (${invoice.customer.email})` : invoice.customer.email}
          </dd>
        </div>
        <div>
          <dt className="inline font-semibold">Status: </dt>
          <dd className="inline">
            {invoice.statusLabel}
            {invoice.overdue ? " (overdue)" : ""}
          </dd>
        </div>
        <div>
          <dt className="inline font-semibold">Issued: </dt>
          <dd className="inline">{invoice.issued}</dd>
        </div>
        <div>
          <dt className="inline font-semibold">Due: </dt>
          <dd className="inline">{invoice.due}</dd>
        </div>
      </dl>
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
                Credit note {note.number} of {note.date}: {note.description}, {note.amount} ({note.paidOut})
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {invoice.footer ? <p className="mt-6 text-slate-700 dark:text-slate-300">{invoice.footer}</p> : null}
    </article>
  );
}
