import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { tapLinkClass } from "~/components/ui-classes";
import { loadMoneyReports } from "~/features/reports/report-pages.server";
import { RangeForm, rangeQuery, ReportSection } from "~/features/reports/report-view";
import { ReportsAsOf } from "~/features/reports/reports-as-of";
import { requireStaff } from "~/features/staff/staff-access.server";
import { STATIC_PAGE } from "~/utils/static-page";

// Reports: recurring revenue and money (the owner's only; docs/decisions/130).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "reports");
  return json(await loadMoneyReports(new URL(request.url)), { headers: { "Cache-Control": "private, no-store" } });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });
export const meta: MetaFunction = () => [{ title: "Money reports | Admin" }];

// Tables and a GET form: loaded as a document, no React (decision 077).
export const handle = STATIC_PAGE;

export default function MoneyReports() {
  const { range, error, asOf, today, tables } = useLoaderData<typeof loader>();
  const [revenue, money, aging, failedPayments] = tables;
  return (
    <section aria-labelledby="money-reports-heading">
      <h2 id="money-reports-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Reports: recurring revenue and money
      </h2>
      <p className="mt-2">
        <a href={`/admin-dashboard/reports?${rangeQuery(range)}`} className={tapLinkClass}>
          Customers and visits
        </a>
      </p>
      <ReportsAsOf asOf={asOf} />
      <RangeForm action="/admin-dashboard/reports/money" range={range} error={error} />
      <ReportSection table={revenue} range={range} chart={{ column: 1, label: "Recurring revenue" }} />
      <ReportSection
        table={money}
        range={range}
        note="From the ledger, current to the last payment."
        chart={{ column: 3, label: "Collected" }}
      />
      <ReportSection table={aging} range={range} note={`What open invoices owe on ${today}.`} />
      <ReportSection table={failedPayments} range={range} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
