import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ActionToast } from "~/components/action-toast";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { linkClass, tapLinkClass } from "~/components/ui-classes";
import { requireStaff } from "~/features/staff/staff-access.server";
import { handleInvoiceAction, loadAdminInvoice } from "~/features/billing/billing-pages.server";
import { InvoiceDocument } from "~/features/billing/invoice-document";
import {
  ChargeCardForm,
  RecordPaymentForm,
  PaymentAmountForm,
  UncollectibleForm,
  ReissueForm,
  VoidForm,
} from "~/features/billing/invoice-forms";
import { centsToInput } from "~/features/billing/money";
import { readFormData } from "~/utils/form-data.server";

// One invoice for an admin: its lines and payments, "Charge" the card on file (with Stripe),
// "Record payment", "Refund", "Void" and "Mark uncollectible" (docs/decisions/102, 107).
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "billing");
  const data = await loadAdminInvoice(params.invoiceId ?? "");
  if (!data) throw new Response("Invoice not found", { status: 404 });
  return json(data, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireStaff(request, context, "billing");
  const form = await readFormData(request);
  return handleInvoiceAction(form, { invoiceId: params.invoiceId ?? "", adminId: admin.id });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

const h3Class = "text-xl font-semibold text-slate-900 dark:text-white";

export default function AdminInvoice() {
  const { invoice, card, forms } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  return (
    <div className="space-y-8">
      <ActionToast toast={actionData?.toast} />
      <p>
        <Link to="/admin-dashboard/billing" className={tapLinkClass}>
          <span aria-hidden="true">←&nbsp;</span>Billing
        </Link>
      </p>
      <p className="break-words">
        <Link to={`/admin-dashboard/customers/${invoice.customer.id}`} className={linkClass}>
          {invoice.customer.name || invoice.customer.email}
        </Link>
      </p>
      <InvoiceDocument invoice={invoice} creditNoteHref={(id) => `/admin-dashboard/billing/credit-notes/${id}`} />
      <section aria-labelledby="payments-heading">
        <h3 id="payments-heading" className={h3Class}>
          Payments
        </h3>
        {invoice.payments.length === 0 ? (
          <p className="mt-2">No payments yet.</p>
        ) : (
          <ul className="mt-2 space-y-4">
            {invoice.payments.map((payment) => (
              <li key={payment.id} className="rounded-xl border border-slate-300 p-4 dark:border-slate-600">
                <p>
                  <strong>{payment.amount}</strong> by {payment.method} on {payment.date}
                  {payment.by ? `, recorded by ${payment.by}` : ""}
                  {payment.refunded ? ` (refunded ${payment.refunded})` : ""}
                  {payment.reversed ? ` (reversed ${payment.reversed})` : ""}
                </p>
                {payment.kept ? (
                  <p className="text-slate-700 dark:text-slate-300" data-testid="overpaid">
                    Overpaid: {payment.kept} was kept as credit on file. Refund it, or keep it for the next invoice.
                  </p>
                ) : null}
                {payment.note ? <p className="text-slate-700 dark:text-slate-300">{payment.note}</p> : null}
                {payment.dispute ? (
                  <p className="mt-2 font-medium text-red-800 dark:text-red-300" data-testid="dispute">
                    Disputed on {payment.dispute.date}: {payment.dispute.note}
                    {payment.dispute.open ? " Respond in Stripe's Dashboard." : null}
                  </p>
                ) : null}
                {payment.disputes.length > 0 ? (
                  <table className="data-table mt-2" data-testid="payment-disputes">
                    <caption className="sr-only">Disputes of this payment, with Stripe&apos;s fee</caption>
                    <thead>
                      <tr>
                        <th scope="col">Stripe dispute</th>
                        <th scope="col">Opened</th>
                        <th scope="col">State</th>
                        <th scope="col" className="text-right">
                          Stripe&apos;s fee
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {payment.disputes.map((dispute) => (
                        <tr key={dispute.id}>
                          <td className="break-all">{dispute.id}</td>
                          <td>{dispute.opened}</td>
                          <td>{dispute.state}</td>
                          <td className="text-right tabular-nums">{dispute.fee}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : null}
                {payment.disputesLost.map((lost) => (
                  <p
                    key={lost.id}
                    className="mt-2 font-medium text-red-800 dark:text-red-300"
                    data-testid="dispute-lost"
                  >
                    Dispute lost on {lost.date}: {lost.amount} taken back by the customer&apos;s bank
                    {lost.disputeId ? ` (Stripe dispute ${lost.disputeId})` : ""}: {lost.took}.
                    {lost.fee ? ` Stripe's dispute fee: ${lost.fee} (the business's cost, not the customer's).` : null}
                  </p>
                ))}
                {payment.viaStripe ? (
                  <p className="text-slate-700 dark:text-slate-300">A refund goes back to the card through Stripe.</p>
                ) : null}
                {payment.refundable > 0 ? (
                  <PaymentAmountForm
                    intent="refund"
                    paymentId={payment.id}
                    most={centsToInput(payment.refundable)}
                    idempotencyKey={forms.refundKey}
                    lastResult={resultFor("refund")}
                    busy={busy}
                  />
                ) : null}
                {!payment.viaStripe && payment.reversible > 0 ? (
                  <PaymentAmountForm
                    intent="reverse-payment"
                    paymentId={payment.id}
                    most={centsToInput(payment.reversible)}
                    idempotencyKey={forms.reversalKey}
                    lastResult={resultFor("reverse-payment")}
                    busy={busy}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      {invoice.status === "open" && card ? (
        <section aria-labelledby="charge-card-heading">
          <h3 id="charge-card-heading" className={h3Class}>
            Charge the card on file
          </h3>
          <p className="mt-2">
            {card}. The balance is charged now; a decline is recorded and the customer told, as on a retry.
          </p>
          <ChargeCardForm
            balance={invoice.balance}
            busy={busy}
            errors={resultFor("charge-card")?.error?.[""] ?? undefined}
          />
        </section>
      ) : null}
      {invoice.status === "open" ? (
        <section aria-labelledby="record-payment-heading">
          <h3 id="record-payment-heading" className={h3Class}>
            Record payment
          </h3>
          <RecordPaymentForm
            idempotencyKey={forms.paymentKey}
            defaults={forms.defaults}
            lastResult={resultFor("record-payment")}
            busy={busy}
          />
        </section>
      ) : null}
      {invoice.status === "open" && invoice.payments.length === 0 ? (
        <section aria-labelledby="void-heading">
          <h3 id="void-heading" className={h3Class}>
            Void this invoice
          </h3>
          <p className="mt-2">Nothing will be owed on it.</p>
          <VoidForm busy={busy} errors={resultFor("void")?.error?.[""] ?? undefined} />
        </section>
      ) : null}
      {invoice.status === "void" ? (
        <section aria-labelledby="reissue-heading">
          <h3 id="reissue-heading" className={h3Class}>
            Issue this invoice again
          </h3>
          {invoice.reissuedAs ? (
            <p className="mt-2">
              Issued again as{" "}
              <Link to={`/admin-dashboard/billing/${invoice.reissuedAs.id}`} className={linkClass}>
                invoice {invoice.reissuedAs.number}
              </Link>
              .
            </p>
          ) : (
            <>
              <p className="mt-2">The same lines on a new invoice, numbered and due today.</p>
              <ReissueForm busy={busy} errors={resultFor("reissue")?.error?.[""] ?? undefined} />
            </>
          )}
        </section>
      ) : null}
      {invoice.status === "open" ? (
        <section aria-labelledby="uncollectible-heading">
          <h3 id="uncollectible-heading" className={h3Class}>
            Write off this invoice
          </h3>
          <p className="mt-2">
            What is left unpaid will not be collected: no card is tried again, and its payments stay on record.
          </p>
          <UncollectibleForm busy={busy} errors={resultFor("uncollectible")?.error?.[""] ?? undefined} />
        </section>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Invoice | Admin Dashboard" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
