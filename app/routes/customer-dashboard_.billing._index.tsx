import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { primaryButtonClass, secondaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { requireUser } from "~/features/accounts/auth.server";
import { loadCustomerBilling } from "~/features/billing/billing-pages.server";
import { handleCheckoutReturn, handleCustomerBillingAction } from "~/features/billing/customer-payments.server";
import { InvoiceTable, type InvoiceTableColumn } from "~/features/billing/invoice-table";
import { PaymentProblemNotice } from "~/features/billing/failed-payments";
import { loadPaymentNotice } from "~/features/billing/failed-payments.server";
import { readFormData } from "~/utils/form-data.server";
import { privatePageMeta } from "~/utils/seo";

// "Billing": the signed-in customer's balance, card on file and invoices; an invoice id posted
// with "Pay now" is read only if it is theirs (docs/decisions/103).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const back = await handleCheckoutReturn(new URL(request.url), user);
  if (back) throw back;
  const [billing, paymentNotice] = await Promise.all([loadCustomerBilling(user.id), loadPaymentNotice(user.id)]);
  return json({ ...billing, paymentNotice }, { headers: { "Cache-Control": "private, no-store" } });
}

// "Add a card" / "Update card" and "Pay now": 303 to Stripe Checkout.
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleCustomerBillingAction(await readFormData(request), user, "/customer-dashboard/billing");
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

const CUSTOMER_COLUMNS: readonly InvoiceTableColumn[] = ["month", "status", "total", "pdf"];

export default function CustomerBilling() {
  const { balance, owes, credit, invoices, creditNotes, stripe, card, formKey, paymentNotice } =
    useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Link to="/customer-dashboard" className={tapLinkClass}>
        <span aria-hidden="true">←&nbsp;</span>Dashboard
      </Link>
      <h1 className="mt-2 text-3xl font-bold text-slate-900 dark:text-white">Billing</h1>
      <PaymentProblemNotice notice={paymentNotice} />
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
        {credit ? (
          <p className="mt-1 font-medium text-slate-900 dark:text-white" data-testid="credit-on-file">
            Credit on file: {credit}. Your next invoice uses it first.
          </p>
        ) : null}
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          {!owes
            ? "You owe nothing. Thank you!"
            : stripe
              ? "Pay now by card, or by cash or check at your next visit."
              : "Pay by cash, check or card at your next visit, or call us."}
        </p>
      </section>
      {stripe ? (
        <section
          aria-labelledby="card-heading"
          className="mt-6 rounded-2xl border border-slate-300 p-6 dark:border-slate-600"
        >
          <h2 id="card-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
            Card on file
          </h2>
          <p className="mt-2" data-testid="card-on-file">
            {card ?? "No card on file."}
          </p>
          <p className="mt-1 text-slate-700 dark:text-slate-300">
            {card
              ? "Each invoice is charged to this card on its due date."
              : "Add a card to pay each invoice automatically on its due date."}{" "}
            Your card details stay with our payment processor, Stripe.
          </p>
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="add-card" />
            <input type="hidden" name="key" value={formKey} />
            <button type="submit" disabled={busy} className={card ? secondaryButtonClass : primaryButtonClass}>
              {card ? "Update card" : "Add a card"}
            </button>
          </Form>
        </section>
      ) : null}
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
            rowAction={
              stripe
                ? {
                    label: "Pay",
                    cell: (invoice) =>
                      invoice.payable ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="pay-now" />
                          <input type="hidden" name="key" value={formKey} />
                          <input type="hidden" name="invoiceId" value={invoice.id} />
                          <button type="submit" disabled={busy} className={secondaryButtonClass}>
                            Pay now<span className="sr-only"> invoice {invoice.number}</span>
                          </button>
                        </Form>
                      ) : null,
                  }
                : undefined
            }
            className="mt-4"
          />
        )}
      </section>
      <CreditNotes notes={creditNotes} />
    </div>
  );
}

type CreditNoteView = ReturnType<typeof useLoaderData<typeof loader>>["creditNotes"][number];

/** Numbered credit notes: money given back as credit on file or refunded (docs/decisions/113, 115). */
function CreditNotes({ notes }: { notes: CreditNoteView[] }) {
  if (notes.length === 0) return null;
  return (
    <section aria-labelledby="credit-notes-heading" className="mt-8">
      <h2 id="credit-notes-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Credit notes
      </h2>
      <ul className="mt-4 space-y-4" data-testid="credit-notes">
        {notes.map((note) => (
          <li key={note.id} className="rounded-2xl border border-slate-300 p-4 dark:border-slate-600">
            <p className="font-semibold text-slate-900 dark:text-white">
              <Link to={`/customer-dashboard/billing/credit-notes/${note.id}`} className={tapLinkClass}>
                Credit note {note.number}
              </Link>
              : {note.amount} ({note.paidOut})
            </p>
            <p className="mt-1 text-slate-700 dark:text-slate-300">
              {note.issued}, {note.reason}. {note.description}
            </p>
            {note.lines.length > 0 ? (
              <ul className="mt-2 list-disc pl-5 text-slate-700 dark:text-slate-300">
                {note.lines.map((line, i) => (
                  <li key={i}>
                    {line.description}: {line.amount}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(matches, "Billing", "Your open balance and your invoices.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
