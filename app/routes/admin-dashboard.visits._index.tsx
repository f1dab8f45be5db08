import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, SelectField } from "~/components/forms";
import { linkClass, primaryButtonClass } from "~/components/ui-classes";
import { VisitStatusBadge } from "~/components/status-badge";
import { requireStaff } from "~/features/staff/staff-access.server";
import { PlanMarker } from "~/features/plans/plan-marker";
import { VISIT_STATUSES } from "~/features/visits/visit-constants";
import { loadVisitList } from "~/features/visits/visit-list.server";
import { STATIC_PAGE } from "~/utils/static-page";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "visits");
  const data = await loadVisitList(new URL(request.url));
  return json(data, {
    status: data.problems.length > 0 ? 400 : 200,
    headers: { "Cache-Control": "private, no-store" },
  });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

// A filter form that GETs and a table of links: loaded as a document, no React (decision 077).
export const handle = STATIC_PAGE;

// `.data-table` is a component class (app/tailwind.css, decision 076).

export default function Visits() {
  const data = useLoaderData<typeof loader>();
  const { filters } = data;
  const nextParams = new URLSearchParams({ from: filters.from, to: filters.to });
  if (filters.status) nextParams.set("status", filters.status);
  if (filters.customer) nextParams.set("customer", filters.customer);
  if (filters.q) nextParams.set("q", filters.q);
  const firstPage = `/admin-dashboard/visits?${nextParams}`;
  if (data.next) nextParams.set("after", data.next);

  return (
    <section aria-labelledby="visits-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="visits-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
          Visits
        </h2>
        {/* Today is a static page (decision 076): entered by a document load, so that it never
            runs inside this page's React, whose root would then drop its scripts. */}
        <Link to="/admin-dashboard/visits/today" reloadDocument className={linkClass}>
          Today
        </Link>
      </div>
      {data.problems.length > 0 ? (
        <div
          role="alert"
          className="mt-4 rounded-lg bg-red-50 p-3 font-medium text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {data.problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      ) : null}
      <Form method="get" className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
        <Field
          label="From"
          inputProps={{ id: "visits-from", type: "date", name: "from", defaultValue: filters.from }}
        />
        <Field label="To" inputProps={{ id: "visits-to", type: "date", name: "to", defaultValue: filters.to }} />
        <SelectField
          label="Status"
          selectProps={{ id: "visits-status", name: "status", defaultValue: filters.status ?? "" }}
        >
          <option value="">Any status</option>
          {VISIT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status.charAt(0).toUpperCase() + status.slice(1)}
            </option>
          ))}
        </SelectField>
        <Field
          label="Customer name or e-mail"
          inputProps={{
            id: "visits-customer-search",
            type: "search",
            name: "q",
            defaultValue: filters.q,
            maxLength: 100,
          }}
        />
        {filters.customer ? <input type="hidden" name="customer" value={filters.customer} /> : null}
        <button type="submit" className={primaryButtonClass}>
          Show visits
        </button>
      </Form>
      {filters.customer || filters.q ? (
        <p className="mt-3">
          {filters.customer
            ? "Showing one customer's visits."
            : `Showing the visits of customers matching "${filters.q}".`}{" "}
          <Link
            to={`/admin-dashboard/visits?${new URLSearchParams({ from: filters.from, to: filters.to })}`}
            className={linkClass}
          >
            Show every customer
          </Link>
        </p>
      ) : null}

      {data.visits.length === 0 ? (
        <p className="mt-8 text-lg text-slate-700 dark:text-slate-200">No visits in this range.</p>
      ) : (
        <div
          className="mt-6 overflow-x-auto rounded-xl border border-slate-300 dark:border-slate-600"
          role="region"
          aria-label="Visits table"
          tabIndex={0}
        >
          <table className="data-table w-full min-w-[44rem] text-left">
            <caption className="sr-only">
              Visits from {filters.from} to {filters.to}, in time order
            </caption>
            <thead className="bg-slate-100 text-sm uppercase tracking-wide text-slate-700 dark:bg-slate-800 dark:text-slate-200">
              <tr>
                <th scope="col">Date and time</th>
                <th scope="col">Customer</th>
                <th scope="col">Address</th>
                <th scope="col">Service</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
              {data.visits.map((visit) => (
                <tr key={visit.id}>
                  <td className="whitespace-nowrap">
                    <Link to={`/admin-dashboard/visits/${visit.id}`} className={linkClass}>
                      <time dateTime={visit.date}>{visit.dateLabel}</time>
                    </Link>
                  </td>
                  <td>
                    <Link to={`/admin-dashboard/customers/${visit.customerId}`} className={linkClass}>
                      {visit.customer}
                    </Link>
                  </td>
                  <td>{visit.address ?? "No address on file"}</td>
                  <td>
                    {visit.serviceType}
                    {visit.fromPlan ? <PlanMarker /> : null}
                  </td>
                  <td>
                    <VisitStatusBadge status={visit.status} />
                    {visit.skipReason ? <span className="mt-1 block text-sm">{visit.skipReason}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.next || filters.paged ? (
        <nav aria-label="Pages" className="mt-6 flex flex-wrap gap-4">
          {filters.paged ? (
            <Link to={firstPage} className={linkClass}>
              First page
            </Link>
          ) : null}
          {data.next ? (
            <Link to={`/admin-dashboard/visits?${nextParams}`} className={linkClass}>
              Next 50 visits
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Visits | Admin Dashboard" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
