import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { primaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { requireUser } from "~/features/accounts/auth.server";
import { loadCustomerInvoice } from "~/features/billing/billing-pages.server";
import { InvoiceDocument } from "~/features/billing/invoice-document";
import { privatePageMeta } from "~/utils/seo";

// One of the signed-in customer's invoices, printable; anyone else's id is a 404, like a missing one.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const invoice = await loadCustomerInvoice(params.invoiceId ?? "", user.id);
  if (!invoice) throw new Response("Invoice not found", { status: 404 });
  const { balanceCents: _balance, payments: _payments, ...shown } = invoice;
  return json({ invoice: shown }, { headers: { "Cache-Control": "private, no-store" } });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function CustomerInvoice() {
  const { invoice } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <p className="print:hidden">
        <Link to="/customer-dashboard/billing" className={tapLinkClass}>
          <span aria-hidden="true">←&nbsp;</span>Billing
        </Link>
      </p>
      <h1 className="sr-only">Invoice {invoice.number}</h1>
      <div className="mt-4">
        <InvoiceDocument invoice={{ ...invoice, payments: [] }} />
      </div>
      <p className="mt-6 print:hidden">
        <a href={`/customer-dashboard/billing/${invoice.id}/pdf`} className={primaryButtonClass} download>
          Download PDF
        </a>
      </p>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(matches, "Invoice", "An invoice from your service.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
