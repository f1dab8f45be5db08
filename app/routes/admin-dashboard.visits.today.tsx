import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ServiceStatusBadge } from "~/components/status-badge";
import { requireAdmin } from "~/features/accounts/auth.server";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { listVisitsBetween } from "~/models/visit.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";

// "Today": the field's view on a phone. Says whether a gate code is on file, never what it is
// (the code is on the visit's page, behind "Show gate code").
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const today = businessToday();
  const rows = await listVisitsBetween(startOfBusinessDay(today)!, startOfBusinessDay(addDays(today, 1))!);
  return json(
    {
      dayLabel: formatBusinessDate(startOfBusinessDay(today)!),
      visits: rows.map((row) => ({
        id: row.id,
        time: formatBusinessDateTime(row.service_date).split(", ").at(-1) ?? "",
        date: row.service_date.toISOString(),
        serviceType: row.service_type,
        status: row.status,
        customer: row.customer_name ?? row.customer_email,
        address: [row.street, row.city, row.zip].filter(Boolean).join(", ") || null,
        dogs: row.dog_count ?? null,
        dogNames: row.dog_names,
        looseDog: Boolean(row.loose_dog),
        hazards: row.hazards,
        hasGateCode: row.has_gate_code,
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function Today() {
  const { dayLabel, visits } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="today-heading" className="mx-auto max-w-xl">
      <Link
        to="/admin-dashboard/visits"
        className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
      >
        <span aria-hidden="true">←&nbsp;</span>All visits
      </Link>
      <h2 id="today-heading" className="mt-2 text-2xl font-bold text-slate-900 dark:text-white">
        Today
      </h2>
      <p className="text-slate-700 dark:text-slate-200">{dayLabel}</p>
      {visits.length === 0 ? (
        <p className="mt-6 text-lg">No visits today.</p>
      ) : (
        <ol className="mt-4 space-y-4">
          {visits.map((visit) => (
            <li key={visit.id} className="rounded-xl border border-slate-300 p-4 dark:border-slate-600">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Link
                  to={`/admin-dashboard/visits/${visit.id}`}
                  className="inline-flex min-h-11 items-center text-lg font-bold text-brand-800 underline underline-offset-4 dark:text-brand-200"
                >
                  <time dateTime={visit.date}>{visit.time}</time>&nbsp;· {visit.customer}
                </Link>
                <ServiceStatusBadge status={visit.status} />
              </div>
              <p className="mt-1">{visit.serviceType}</p>
              <p className="mt-1 font-medium">{visit.address ?? "No address on file"}</p>
              <ul className="mt-2 flex flex-wrap gap-2 text-sm">
                <li className="rounded-full bg-slate-100 px-3 py-1 dark:bg-slate-800">
                  {visit.dogs === null ? "Dogs: not given" : `Dogs: ${visit.dogs}`}
                  {visit.dogNames ? ` (${visit.dogNames})` : ""}
                </li>
                {visit.looseDog ? (
                  <li className="rounded-full bg-yellow-100 px-3 py-1 font-semibold text-yellow-900 dark:bg-yellow-800 dark:text-yellow-50">
                    A dog may be loose in the yard
                  </li>
                ) : null}
                <li className="rounded-full bg-slate-100 px-3 py-1 dark:bg-slate-800">
                  {visit.hasGateCode ? "Gate code on file" : "No gate code"}
                </li>
              </ul>
              {visit.hazards ? <p className="mt-2">Hazards: {visit.hazards}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Today | Visits" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
