import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { VisitStatusBadge } from "~/components/status-badge";
import { loadMyVisits, MY_VISITS_LIMIT } from "~/features/staff/my-visits.server";
import { requireStaff } from "~/features/staff/staff-access.server";
import { STATIC_PAGE } from "~/utils/static-page";

// Links and text only: the page ships no React, as Today (decision 076).
export const handle = STATIC_PAGE;

// "My visits" (decision 128): the visits assigned to the viewer, today and the next 7 days.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context, "field");
  return json(await loadMyVisits(staff), { headers: { "Cache-Control": "private, no-store" } });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function MyVisits() {
  const { days, cut } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="my-visits-heading" className="mx-auto max-w-xl">
      <a href="/admin-dashboard/visits/today" className="tap-link">
        <span aria-hidden="true">←&nbsp;</span>Today
      </a>
      <h2 id="my-visits-heading" className="mt-2 text-2xl font-bold text-slate-900 dark:text-white">
        My visits
      </h2>
      <p className="text-slate-700 dark:text-slate-200">The visits assigned to you, today and the next 7 days.</p>
      {days.length === 0 ? <p className="mt-6 text-lg">No visits assigned to you.</p> : null}
      {days.map((day) => (
        <section key={day.day} aria-labelledby={`day-${day.day}`} className="mt-6">
          <h3 id={`day-${day.day}`} className="text-xl font-semibold text-slate-900 dark:text-white">
            {day.isToday ? `Today, ${day.label}` : day.label}
          </h3>
          <ol className="mt-3 space-y-3">
            {day.visits.map((visit) => (
              <li key={visit.id} className="list-card">
                <div className="row-head items-center">
                  <a href={visit.href} className="tap-link text-lg font-bold">
                    <time dateTime={visit.date}>{visit.time}</time>
                    {`\u00a0· ${visit.customer}`}
                  </a>
                  <VisitStatusBadge status={visit.status} />
                </div>
                <p className="mt-1">{visit.serviceType}</p>
                {visit.skipReason ? <p className="mt-1">{visit.skipReason}</p> : null}
                <p className="mt-1">{visit.address ?? "No address on file"}</p>
              </li>
            ))}
          </ol>
        </section>
      ))}
      {cut ? <p className="mt-6">{`Showing the first ${MY_VISITS_LIMIT} visits.`}</p> : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "My visits | Visits" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
