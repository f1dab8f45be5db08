import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { inputClass, labelClass, secondaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { requireStaff } from "~/features/staff/staff-access.server";
import { loadBillingTab } from "~/features/billing/billing-pages.server";
import { InvoiceStatusNav } from "~/features/billing/invoice-status-nav";
import { InvoiceTable, type InvoiceTableColumn } from "~/features/billing/invoice-table";
import { FailedPaymentsList } from "~/features/billing/failed-payments";
import { OutsideCatalogueList } from "~/features/billing/outside-catalogue";
import { loadFailedPayments } from "~/features/billing/failed-payments.server";
import { STATIC_PAGE } from "~/utils/static-page";

// Billing: the invoices of one status at a time (open first, overdue at the top), keyset-paged,
// with the month's totals (docs/decisions/102).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "billing");
  const [tab, failedPayments] = await Promise.all([loadBillingTab(new URL(request.url)), loadFailedPayments()]);
  return json({ ...tab, failedPayments }, { headers: { "Cache-Control": "private, no-store" } });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

// A list of links: loaded as a document, no React (decision 077).
export const handle = STATIC_PAGE;

const ADMIN_COLUMNS: readonly InvoiceTableColumn[] = ["customer", "month", "due", "total", "balance"];

export default function Billing() {
  const {
    status,
    statuses,
    month,
    totals,
    overdue,
    next,
    invoices,
    failedPayments,
    ledger,
    overpaid,
    outsideCatalogue,
    disputesLost,
  } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="billing-heading">
      <h2 id="billing-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Billing
      </h2>
      <dl className="mt-4 grid gap-3 sm:grid-cols-4">
        <div className="rounded-xl border border-slate-300 p-3 dark:border-slate-600">
          <dt className="text-sm text-slate-700 dark:text-slate-300">Invoiced in {month}</dt>
          <dd className="text-xl font-semibold">{totals.invoiced}</dd>
        </div>
        <div className="rounded-xl border border-slate-300 p-3 dark:border-slate-600">
          <dt className="text-sm text-slate-700 dark:text-slate-300">Paid</dt>
          <dd className="text-xl font-semibold">{totals.paid}</dd>
        </div>
        <div className="rounded-xl border border-slate-300 p-3 dark:border-slate-600">
          <dt className="text-sm text-slate-700 dark:text-slate-300">Still open</dt>
          <dd className="text-xl font-semibold">{totals.open}</dd>
        </div>
        <div className="rounded-xl border border-slate-300 p-3 dark:border-slate-600">
          <dt className="text-sm text-slate-700 dark:text-slate-300">Overdue invoices</dt>
          <dd className="text-xl font-semibold">{overdue}</dd>
        </div>
      </dl>
      <FailedPaymentsList failed={failedPayments} />
      <OverpaidList overpaid={overpaid} />
      <OutsideCatalogueList outside={outsideCatalogue} />
      <InvoiceStatusNav statuses={statuses} current={status} />
      {disputesLost ? (
        <DisputesLostList lost={disputesLost} />
      ) : invoices.length === 0 ? (
        <p className="mt-6 text-lg">No invoices here.</p>
      ) : (
        <InvoiceTable
          caption="Invoices"
          columns={ADMIN_COLUMNS}
          invoices={invoices}
          invoiceHref={(id) => `/admin-dashboard/billing/${id}`}
          className="mt-6"
        />
      )}
      {next ? (
        <p className="mt-4">
          <Link to={next} className={tapLinkClass}>
            Next page
          </Link>
        </p>
      ) : null}
      <LedgerMonth ledger={ledger} />
    </section>
  );
}

type OverpaidView = ReturnType<typeof useLoaderData<typeof loader>>["overpaid"];

/** Money that came beyond what was owed (a Pay now left open, say): kept as credit until refunded. */
function OverpaidList({ overpaid }: { overpaid: OverpaidView }) {
  if (overpaid.items.length === 0) return null;
  return (
    <section aria-labelledby="overpaid-heading" className="mt-6">
      <h3 id="overpaid-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Overpaid
      </h3>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        Money beyond what an invoice owed is kept as credit on file, and what else is owed uses it first. Refund it from
        the invoice&apos;s page, or keep it for the next invoice.
      </p>
      <ul className="mt-2 space-y-2" data-testid="overpaid">
        {overpaid.items.map((item) => (
          <li key={item.id}>
            <Link to={`/admin-dashboard/billing/${item.invoiceId}`} className={tapLinkClass}>
              {item.number}
            </Link>{" "}
            <Link to={`/admin-dashboard/customers/${item.customerId}`} className={tapLinkClass}>
              {item.customer}
            </Link>
            : {item.paid} paid on {item.date}, {item.beyond} more than was owed is still on file
          </li>
        ))}
      </ul>
      {overpaid.more ? <p className="mt-2">And more: the newest are shown.</p> : null}
    </section>
  );
}

type DisputesLostView = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["disputesLost"]>;

/** Payments the customer's bank took back (decisions 118, 121), with Stripe's fee for each. */
function DisputesLostList({ lost }: { lost: DisputesLostView }) {
  if (lost.items.length === 0) return <p className="mt-6 text-lg">No disputes lost.</p>;
  return (
    <>
      <table className="data-table mt-6" data-testid="disputes-lost">
        <caption className="sr-only">Disputes lost, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Invoice</th>
            <th scope="col">Customer</th>
            <th scope="col">Lost on</th>
            <th scope="col" className="text-right">
              Taken back
            </th>
            <th scope="col" className="text-right">
              Stripe&apos;s fee
            </th>
            <th scope="col">Stripe dispute</th>
          </tr>
        </thead>
        <tbody>
          {lost.items.map((item) => (
            <tr key={item.id}>
              <td>
                <Link to={`/admin-dashboard/billing/${item.invoiceId}`} className={tapLinkClass}>
                  {item.number}
                </Link>
              </td>
              <td className="break-words">
                <Link to={`/admin-dashboard/customers/${item.customerId}`} className={tapLinkClass}>
                  {item.customer}
                </Link>
              </td>
              <td>{item.date}</td>
              <td className="text-right tabular-nums">{item.amount}</td>
              <td className="text-right tabular-nums">{item.fee ?? "None"}</td>
              <td className="break-all">{item.disputeId}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {lost.more ? <p className="mt-2">And more: the newest are shown.</p> : null}
    </>
  );
}

type LedgerView = ReturnType<typeof useLoaderData<typeof loader>>["ledger"];

/** The month's roll-forward from the customer ledger, and the accountant's export (decision 113). */
function LedgerMonth({ ledger }: { ledger: LedgerView }) {
  return (
    <section aria-labelledby="ledger-heading" className="mt-10">
      <h3 id="ledger-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        The ledger in {ledger.month}
      </h3>
      <table className="data-table mt-3" data-testid="ledger-month">
        <caption className="sr-only">Balances at the start and end of {ledger.month}, and what moved them</caption>
        <tbody>
          <tr>
            <th scope="row">Owed at the start of the month</th>
            <td className="text-right tabular-nums">{ledger.opening}</td>
          </tr>
          {ledger.rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td className="text-right tabular-nums">{row.amount}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Owed at the end of the month</th>
            <td className="text-right font-semibold tabular-nums" data-testid="ledger-closing">
              {ledger.closing}
            </td>
          </tr>
        </tbody>
      </table>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        Payments, credits, voids and write-offs are negative; a negative balance is credit on file.
      </p>
      <p className="mt-2 flex flex-wrap gap-4">
        <Link to={`?ledger=${ledger.previous}`} className={tapLinkClass}>
          Month before
        </Link>
        {ledger.following ? (
          <Link to={`?ledger=${ledger.following}`} className={tapLinkClass}>
            Month after
          </Link>
        ) : null}
      </p>
      <form method="get" action="/admin-dashboard/billing/ledger.csv" className="mt-4 flex flex-wrap items-end gap-4">
        <p>
          <label htmlFor="ledger-from" className={labelClass}>
            From
          </label>
          <input id="ledger-from" name="from" type="date" defaultValue={ledger.exportFrom} className={inputClass} />
        </p>
        <p>
          <label htmlFor="ledger-to" className={labelClass}>
            To
          </label>
          <input id="ledger-to" name="to" type="date" defaultValue={ledger.exportTo} className={inputClass} />
        </p>
        <button type="submit" className={secondaryButtonClass}>
          Export the ledger (CSV)
        </button>
      </form>
    </section>
  );
}

export const meta: MetaFunction = () => [
  { title: "Billing | Admin Dashboard" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
