import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CheckboxField, Field } from "~/components/forms";
import { primaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { requireStaff } from "~/features/staff/staff-access.server";
import { customerListHref } from "~/features/customers/customer-list-url";
import { loadCustomerList } from "~/features/customers/customer-list.server";
import { NO_PLAN_FILTER } from "~/features/plans/plan-constants";
import { STATIC_PAGE } from "~/utils/static-page";

// Customers: server-side search by name or e-mail (ILIKE, limited), the customers without a
// plan, keyset-paged; each row with its plan.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "customers");
  return json(await loadCustomerList(new URL(request.url)), { headers: { "Cache-Control": "private, no-store" } });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

// A search form that GETs and a list of links: loaded as a document, no React (decision 077).
export const handle = STATIC_PAGE;

export default function Customers() {
  const { q, noPlan, customers, next, paged } = useLoaderData<typeof loader>();
  const filters = { q, noPlan };
  return (
    <section aria-labelledby="customers-heading">
      <h2 id="customers-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Customers
      </h2>
      <Form method="get" role="search" className="mt-4 flex flex-wrap items-end gap-3">
        <Field
          label="Search by name or e-mail"
          className="min-w-64 flex-1"
          inputProps={{ id: "customer-search", type: "search", name: "q", defaultValue: q, maxLength: 100 }}
        />
        <CheckboxField
          label="No plan"
          inputProps={{ id: "customers-no-plan", name: "plan", value: NO_PLAN_FILTER, defaultChecked: noPlan }}
        />
        <button type="submit" className={primaryButtonClass}>
          Search
        </button>
      </Form>
      {customers.length === 0 ? (
        <p className="mt-6 text-lg">
          {noPlan
            ? q
              ? `No customers without a plan match "${q}".`
              : "Every customer has a plan."
            : q
              ? `No customers match "${q}".`
              : "No customers yet."}
        </p>
      ) : (
        <ul className="mt-6 divide-y divide-slate-200 dark:divide-slate-700">
          {customers.map((c) => (
            <li key={c.id} className="row-head items-center py-2">
              <Link to={`/admin-dashboard/customers/${c.id}`} className={tapLinkClass}>
                {c.name ?? c.email}
              </Link>
              <span>{c.plan ?? "No plan"}</span>
              <span className="break-all text-slate-700 dark:text-slate-200">{`${c.email}${c.verified ? "" : " (unverified)"} · since ${c.since}`}</span>
            </li>
          ))}
        </ul>
      )}
      <nav aria-label="Pages" className="mt-6 flex gap-6">
        {paged ? (
          <Link to={customerListHref(filters)} className={tapLinkClass}>
            First page
          </Link>
        ) : null}
        {next ? (
          <Link to={customerListHref(filters, next)} className={tapLinkClass}>
            Next customers
          </Link>
        ) : null}
      </nav>
    </section>
  );
}

export const meta: MetaFunction = () => [
  { title: "Customers | Admin Dashboard" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
