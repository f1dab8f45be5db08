import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { linkClass } from "~/components/ui-classes";

/**
 * A list of invoices as a table: the admin's Billing tab and the customer's Billing page both
 * show one, each with its own columns. In a region of its own that scrolls sideways when the
 * columns are wider than a phone (360 px), so the page itself never does; the region is
 * focusable and named, so keyboard users can scroll it too, and positioned, so the PDF links'
 * screen-reader-only words stay inside it instead of widening the page. Cells take their padding from
 * `.data-table` (app/tailwind.css) and rows their lines from the body: a few bytes a row, 50 rows
 * a page (decision 076).
 */
export type InvoiceTableColumn = "customer" | "month" | "due" | "status" | "total" | "balance" | "pdf";

export type InvoiceTableRow = {
  id: string;
  number: string;
  month: string;
  total: string;
  overdue: boolean;
  customer?: string;
  due?: string;
  status?: string;
  balance?: string;
};

const HEADINGS: Record<InvoiceTableColumn, string> = {
  customer: "Customer",
  month: "Month",
  due: "Due",
  status: "Status",
  total: "Total",
  balance: "Balance",
  pdf: "PDF",
};
const RIGHT: ReadonlySet<InvoiceTableColumn> = new Set(["total", "balance", "pdf"]);
const moneyClass = "text-right tabular-nums";

function Cell({
  column,
  invoice,
  pdfHref,
}: {
  column: InvoiceTableColumn;
  invoice: InvoiceTableRow;
  pdfHref?: string;
}) {
  switch (column) {
    case "customer":
      return <td>{invoice.customer}</td>;
    case "month":
      return <td>{invoice.month}</td>;
    case "due":
      return (
        <td>
          {invoice.due}
          {invoice.overdue ? <strong className="ml-2 text-red-800 dark:text-red-300">Overdue</strong> : null}
        </td>
      );
    case "status":
      return (
        <td>
          {invoice.status}
          {invoice.overdue ? " (overdue)" : ""}
        </td>
      );
    case "total":
      return <td className={moneyClass}>{invoice.total}</td>;
    case "balance":
      return <td className={moneyClass}>{invoice.balance}</td>;
    case "pdf":
      return (
        <td className="text-right">
          <a href={pdfHref} className={linkClass} download>
            Download<span className="sr-only"> invoice {invoice.number} as PDF</span>
          </a>
        </td>
      );
  }
}

export function InvoiceTable<Row extends InvoiceTableRow>({
  caption,
  columns,
  invoices,
  invoiceHref,
  pdfHref,
  rowAction,
  className = "",
}: {
  /** The table's name, for screen readers and the scrolling region. */
  caption: string;
  /** The columns after the invoice number, in order. */
  columns: readonly InvoiceTableColumn[];
  invoices: readonly Row[];
  invoiceHref: (id: string) => string;
  /** With the "pdf" column: where each invoice's PDF is. */
  pdfHref?: (id: string) => string;
  /** A last column of controls (the customer's "Pay now"), named for screen readers by `label`. */
  rowAction?: { label: string; cell: (invoice: Row) => ReactNode };
  className?: string;
}) {
  return (
    <div
      className={`relative overflow-x-auto rounded-xl border border-slate-300 dark:border-slate-600 ${className}`}
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table className="data-table w-full text-left">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100">
          <tr>
            <th scope="col">Invoice</th>
            {columns.map((column) => (
              <th key={column} scope="col" className={RIGHT.has(column) ? "text-right" : undefined}>
                {HEADINGS[column]}
              </th>
            ))}
            {rowAction ? (
              <th scope="col" className="text-right">
                <span className="sr-only">{rowAction.label}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
          {invoices.map((invoice) => (
            <tr key={invoice.id}>
              <td className="whitespace-nowrap">
                <Link to={invoiceHref(invoice.id)} className={linkClass}>
                  {invoice.number}
                </Link>
              </td>
              {columns.map((column) => (
                <Cell key={column} column={column} invoice={invoice} pdfHref={pdfHref?.(invoice.id)} />
              ))}
              {rowAction ? <td className="text-right">{rowAction.cell(invoice)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
