import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { primaryButtonClass, secondaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { requireUser } from "~/features/accounts/auth.server";
import { loadCustomerInvoice, payOnline } from "~/features/billing/billing-pages.server";
import { handleCheckoutReturn, handleCustomerBillingAction } from "~/features/billing/customer-payments.server";
import { InvoiceDocument } from "~/features/billing/invoice-document";
import { readFormData } from "~/utils/form-data.server";
import { privatePageMeta } from "~/utils/seo";

// One of the signed-in customer's invoices, printable; anyone else's id is a 404, like a missing one.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const invoice = await loadCustomerInvoice(params.invoiceId ?? "", user.id);
  if (!invoice) throw new Response("Invoice not found", { status: 404 });
  const back = await handleCheckoutReturn(new URL(request.url), user);
  if (back) throw back;
  const { balanceCents, payments: _payments, ...shown } = invoice;
  const { stripe, formKey } = payOnline();
  return json(
    { invoice: shown, payNow: stripe && balanceCents > 0 ? { formKey } : null },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

// "Pay now": 303 to Stripe Checkout for this invoice's balance (docs/decisions/103).
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readFormData(request);
  form.set("invoiceId", params.invoiceId ?? "");
  return handleCustomerBillingAction(form, user, `/customer-dashboard/billing/${params.invoiceId ?? ""}`);
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function CustomerInvoice() {
  const { invoice, payNow } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <p className="print:hidden">
        <Link to="/customer-dashboard/billing" className={tapLinkClass}>
          <span aria-hidden="true">←&nbsp;</span>Billing
        </Link>
      </p>
      <h1 className="sr-only">Invoice {invoice.number}</h1>
      <div className="mt-4">
        <InvoiceDocument
          invoice={{ ...invoice, payments: [] }}
          creditNoteHref={(id) => `/customer-dashboard/billing/credit-notes/${id}`}
        />
      </div>
      <div className="mt-6 flex flex-wrap gap-4 print:hidden">
        {payNow ? (
          <Form method="post">
            <input type="hidden" name="intent" value="pay-now" />
            <input type="hidden" name="key" value={payNow.formKey} />
            <button type="submit" disabled={busy} className={primaryButtonClass}>
              Pay now
            </button>
          </Form>
        ) : null}
        <a
          href={`/customer-dashboard/billing/${invoice.id}/pdf`}
          className={payNow ? secondaryButtonClass : primaryButtonClass}
          download
        >
          Download PDF
        </a>
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(matches, "Invoice", "An invoice from your service.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
