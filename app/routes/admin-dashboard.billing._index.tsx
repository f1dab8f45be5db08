import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { tapLinkClass } from "~/components/ui-classes";
import { requireAdmin } from "~/features/accounts/auth.server";
import { loadBillingTab } from "~/features/billing/billing-pages.server";
import { InvoiceStatusNav } from "~/features/billing/invoice-status-nav";
import { InvoiceTable, type InvoiceTableColumn } from "~/features/billing/invoice-table";
import { FailedPaymentsList } from "~/features/billing/failed-payments";
import { loadFailedPayments } from "~/features/billing/failed-payments.server";
import { STATIC_PAGE } from "~/utils/static-page";

// Billing: the invoices of one status at a time (open first, overdue at the top), keyset-paged,
// with the month's totals (docs/decisions/102).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const [tab, failedPayments] = await Promise.all([loadBillingTab(new URL(request.url)), loadFailedPayments()]);
  return json({ ...tab, failedPayments }, { headers: { "Cache-Control": "private, no-store" } });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

// A list of links: loaded as a document, no React (decision 077).
export const handle = STATIC_PAGE;

const ADMIN_COLUMNS: readonly InvoiceTableColumn[] = ["customer", "month", "due", "total", "balance"];

export default function Billing() {
  const { status, statuses, month, totals, overdue, next, invoices, failedPayments } = useLoaderData<typeof loader>();
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
      <InvoiceStatusNav statuses={statuses} current={status} />
      {invoices.length === 0 ? (
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
