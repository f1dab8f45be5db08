import { Link } from "@remix-run/react";
import type { FailedPayments, PaymentNotice } from "./failed-payments.server";
import { linkClass, tapLinkClass } from "~/components/ui-classes";

/**
 * Failed payments on the billing pages (docs/decisions/104): the admin's list on the Billing tab,
 * and the customer's notice at the top of their Billing page. Plain markup: the admin tab renders
 * without React in the browser (decision 077), and both work with JavaScript off.
 */

export function FailedPaymentsList({ failed }: { failed: FailedPayments }) {
  return (
    <section aria-labelledby="failed-payments-heading" className="mt-6">
      <h3 id="failed-payments-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Failed payments
      </h3>
      {failed.items.length === 0 ? (
        <p className="mt-2">No failed payments.</p>
      ) : (
        // A region of its own that scrolls sideways on a phone (as InvoiceTable), so the page never does.
        <div
          className="relative mt-3 overflow-x-auto rounded-xl border border-slate-300 dark:border-slate-600"
          role="region"
          aria-label="Failed payments table"
          tabIndex={0}
        >
          <table className="data-table w-full text-left">
            <caption className="sr-only">Open invoices whose card payment failed, newest failure first</caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-600">
                <th scope="col" className="py-2 pr-3">
                  Invoice
                </th>
                <th scope="col" className="py-2 pr-3">
                  Customer
                </th>
                <th scope="col" className="py-2 pr-3">
                  Reason
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Attempts
                </th>
                <th scope="col" className="py-2 pr-3">
                  Next retry
                </th>
                <th scope="col" className="py-2">
                  Service paused
                </th>
              </tr>
            </thead>
            <tbody>
              {failed.items.map((item) => (
                <tr key={item.id} className="border-b border-slate-200 dark:border-slate-700">
                  <td className="py-2 pr-3">
                    <Link to={`/admin-dashboard/billing/${item.id}`} className={linkClass}>
                      {item.number}
                    </Link>
                    <span className="block text-sm tabular-nums">{item.balance} owed</span>
                  </td>
                  <td className="py-2 pr-3">
                    <Link to={`/admin-dashboard/customers/${item.customerId}`} className={linkClass}>
                      {item.customer}
                    </Link>
                  </td>
                  <td className="py-2 pr-3">
                    {item.reason}
                    <span className="block text-sm">{item.failed}</span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{item.attempts}</td>
                  <td className="py-2 pr-3">{item.nextRetry ?? "No more retries"}</td>
                  <td className="py-2">{item.pausedSince ? `Paused since ${item.pausedSince}` : "No"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {failed.more ? <p className="mt-2">Showing the 50 most recent failures.</p> : null}
    </section>
  );
}

/** Where "Update card" leads: the "Card on file" section of the Billing page (its "Update card" opens Stripe). */
const UPDATE_CARD_HREF = "/customer-dashboard/billing#card-heading";

export function PaymentProblemNotice({ notice }: { notice: PaymentNotice }) {
  if (notice.length === 0) return null;
  const paused = notice.some((item) => item.paused);
  return (
    <section
      aria-labelledby="payment-problem-heading"
      className="mt-6 rounded-2xl border-2 border-red-700 bg-red-50 p-6 text-slate-900 dark:border-red-300 dark:bg-red-950 dark:text-white"
    >
      <h2 id="payment-problem-heading" className="text-xl font-semibold">
        {paused ? "Your service is paused" : "Your payment didn't go through"}
      </h2>
      <ul className="mt-2 space-y-2">
        {notice.map((item) => (
          <li key={item.id}>
            {item.paused
              ? `Invoice ${item.number} (${item.balance}) is unpaid, so your visits are skipped until it is paid. Your service starts again by itself once it is.`
              : `We couldn't take the payment for invoice ${item.number} (${item.balance}). The reason given: ${item.reason}`}
            {!item.paused && item.nextRetry ? ` We'll try your card again on ${item.nextRetry}.` : ""}
          </li>
        ))}
      </ul>
      <p className="mt-3">
        <a href={UPDATE_CARD_HREF} className={tapLinkClass}>
          Update card
        </a>
      </p>
    </section>
  );
}
