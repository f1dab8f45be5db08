import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { tapLinkClass } from "~/components/ui-classes";
import { loadOperationsReports } from "~/features/reports/report-pages.server";
import { RangeForm, rangeQuery, ReportSection } from "~/features/reports/report-view";
import { ReportsAsOf } from "~/features/reports/reports-as-of";
import { requireStaff } from "~/features/staff/staff-access.server";
import { STATIC_PAGE } from "~/utils/static-page";

// Reports: customers and visits, no money (owner and office; docs/decisions/130). The money
// reports are their own page, the owner's.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, "operations-reports");
  return json(await loadOperationsReports(new URL(request.url), user), {
    headers: { "Cache-Control": "private, no-store" },
  });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });
export const meta: MetaFunction = () => [{ title: "Reports | Admin" }];

// Tables and a GET form: loaded as a document, no React (decision 077).
export const handle = STATIC_PAGE;

export default function Reports() {
  const { range, error, asOf, tables, mayReadMoney } = useLoaderData<typeof loader>();
  const [customers, cancellations, retention, visits] = tables;
  return (
    <section aria-labelledby="reports-heading">
      <h2 id="reports-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Reports: customers and visits
      </h2>
      {mayReadMoney ? (
        <p className="mt-2">
          <a href={`/admin-dashboard/reports/money?${rangeQuery(range)}`} className={tapLinkClass}>
            Recurring revenue and money
          </a>
        </p>
      ) : null}
      <ReportsAsOf asOf={asOf} />
      <RangeForm action="/admin-dashboard/reports" range={range} error={error} />
      <ReportSection table={customers} range={range} chart={{ column: 1, label: "Active customers" }} />
      <ReportSection table={cancellations} range={range} />
      <ReportSection table={retention} range={range} />
      <ReportSection table={visits} range={range} chart={{ column: 1, label: "Completed visits" }} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
