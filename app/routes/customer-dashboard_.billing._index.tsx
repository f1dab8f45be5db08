import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { tapLinkClass } from "~/components/ui-classes";
import { requireUser } from "~/features/accounts/auth.server";
import { loadCustomerBilling } from "~/features/billing/billing-pages.server";
import { InvoiceTable, type InvoiceTableColumn } from "~/features/billing/invoice-table";
import { privatePageMeta } from "~/utils/seo";

// "Billing": the signed-in customer's balance and invoices; nothing here takes an id from the URL.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return json(await loadCustomerBilling(user.id), { headers: { "Cache-Control": "private, no-store" } });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

const CUSTOMER_COLUMNS: readonly InvoiceTableColumn[] = ["month", "status", "total", "pdf"];

export default function CustomerBilling() {
  const { balance, owes, invoices } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Link to="/customer-dashboard" className={tapLinkClass}>
        <span aria-hidden="true">←&nbsp;</span>Dashboard
      </Link>
      <h1 className="mt-2 text-3xl font-bold text-slate-900 dark:text-white">Billing</h1>
      <section
        aria-labelledby="balance-heading"
        className="mt-6 rounded-2xl border border-slate-300 p-6 dark:border-slate-600"
      >
        <h2 id="balance-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
          Open balance
        </h2>
        <p className="mt-2 text-3xl font-bold" data-testid="open-balance">
          {balance}
        </p>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          {owes ? "Pay by cash, check or card at your next visit, or call us." : "You owe nothing. Thank you!"}
        </p>
      </section>
      <section aria-labelledby="invoices-heading" className="mt-8">
        <h2 id="invoices-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
          Invoices
        </h2>
        {invoices.length === 0 ? (
          <p className="mt-2">No invoices yet.</p>
        ) : (
          <InvoiceTable
            caption="Your invoices"
            columns={CUSTOMER_COLUMNS}
            invoices={invoices}
            invoiceHref={(id) => `/customer-dashboard/billing/${id}`}
            pdfHref={(id) => `/customer-dashboard/billing/${id}/pdf`}
            className="mt-4"
          />
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(matches, "Billing", "Your open balance and your invoices.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
