import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { VisitStatusBadge } from "~/components/status-badge";
import { requireAdmin } from "~/features/accounts/auth.server";
import { OnMyWayForm } from "~/features/notices/on-my-way-form";
import { onMyWaySentTimes } from "~/features/notices/on-my-way-view.server";
import { SKIP_REASON_LABELS } from "~/features/plans/plan-constants";
import { PlanMarker } from "~/features/plans/plan-marker";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { listVisitsBetween, visitExists } from "~/models/visit.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { STATIC_PAGE } from "~/utils/static-page";
import { isUuid } from "~/utils/uuid";

/** Visits a page; "Next 50 visits" goes on from the last one shown (decision 076). */
export const TODAY_PAGE_SIZE = 50;

// A list of links and nothing to post: the page ships no React (decision 076, as 066).
export const handle = STATIC_PAGE;

// "Today": the field's view on a phone. Says whether a gate code is on file, never what it is
// (the code is on the visit's page, behind "Show gate code").
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const today = businessToday();
  const from = startOfBusinessDay(today)!;
  const to = startOfBusinessDay(addDays(today, 1))!;
  // `after` is the id of the last visit of the page before (keyset, as the Visits list).
  const afterParam = url.searchParams.get("after");
  let after = afterParam && isUuid(afterParam) ? afterParam : null;
  let rows = await listVisitsBetween(from, to, { after, limit: TODAY_PAGE_SIZE + 1 });
  let pageGone = false;
  if (afterParam && (!after || (rows.length === 0 && !(await visitExists(after))))) {
    // A malformed or stale link (its visit deleted since): the first page, and say so.
    pageGone = true;
    after = null;
    rows = await listVisitsBetween(from, to, { limit: TODAY_PAGE_SIZE + 1 });
  }
  const page = rows.slice(0, TODAY_PAGE_SIZE);
  const onMyWaySent = await onMyWaySentTimes(page.map((row) => row.id));
  return json(
    {
      dayLabel: formatBusinessDate(from),
      pageGone,
      paged: Boolean(after),
      next: rows.length > TODAY_PAGE_SIZE ? (page.at(-1)?.id ?? null) : null,
      visits: page.map((row) => ({
        id: row.id,
        time: formatBusinessDateTime(row.service_date).split(", ").at(-1) ?? "",
        date: row.service_date.toISOString(),
        serviceType: row.service_type,
        status: row.status,
        fromPlan: row.plan_id !== null,
        skipReason: row.status === "skipped" && row.skip_reason ? SKIP_REASON_LABELS[row.skip_reason] : null,
        customer: row.customer_name ?? row.customer_email,
        address: [row.street, row.city, row.zip].filter(Boolean).join(", ") || null,
        dogs: row.dog_count ?? null,
        dogNames: row.dog_names,
        looseDog: Boolean(row.loose_dog),
        hazards: row.hazards,
        hasGateCode: row.has_gate_code,
        onMyWayAt: onMyWaySent[row.id] ?? null,
      })),
    },
    { status: pageGone ? 400 : 200, headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function Today() {
  const { dayLabel, visits, pageGone, paged, next } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="today-heading" className="mx-auto max-w-xl">
      <Link to="/admin-dashboard/visits" className="tap-link">
        <span aria-hidden="true">←&nbsp;</span>All visits
      </Link>
      <h2 id="today-heading" className="mt-2 text-2xl font-bold text-slate-900 dark:text-white">
        Today
      </h2>
      <p className="text-slate-700 dark:text-slate-200">{dayLabel}</p>
      {pageGone ? (
        <p
          role="alert"
          className="mt-4 rounded-lg bg-red-50 p-3 font-medium text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          That page does not exist; showing the first page.
        </p>
      ) : null}
      {visits.length === 0 ? (
        <p className="mt-6 text-lg">{paged ? "No later visits today." : "No visits today."}</p>
      ) : (
        <ol className="mt-4 space-y-4">
          {visits.map((visit) => (
            <li key={visit.id} className="list-card">
              <div className="row-head items-center">
                <Link to={`/admin-dashboard/visits/${visit.id}`} className="tap-link text-lg font-bold">
                  <time dateTime={visit.date}>{visit.time}</time>
                  {`\u00a0· ${visit.customer}`}
                </Link>
                <VisitStatusBadge status={visit.status} />
              </div>
              <p className="mt-1">
                {visit.serviceType}
                {visit.fromPlan ? <PlanMarker /> : null}
              </p>
              {visit.skipReason ? <p className="mt-1">{visit.skipReason}</p> : null}
              <p className="mt-1 font-medium">{visit.address ?? "No address on file"}</p>
              <ul className="chips">
                <li className="chip">
                  {(visit.dogs === null ? "Dogs: not given" : `Dogs: ${visit.dogs}`) +
                    (visit.dogNames ? ` (${visit.dogNames})` : "")}
                </li>
                {visit.looseDog ? <li className="chip-warn">A dog may be loose in the yard</li> : null}
                <li className="chip">{visit.hasGateCode ? "Gate code on file" : "No gate code"}</li>
              </ul>
              {visit.hazards ? <p className="mt-2">{`Hazards: ${visit.hazards}`}</p> : null}
              {visit.status === "scheduled" ? (
                <OnMyWayForm visitId={visit.id} returnTo="today" sentAt={visit.onMyWayAt} />
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {next || paged ? (
        <nav aria-label="Pages" className="mt-6 flex flex-wrap gap-6">
          {paged ? (
            <Link to="/admin-dashboard/visits/today" className="tap-link">
              First page
            </Link>
          ) : null}
          {next ? (
            <Link to={`/admin-dashboard/visits/today?${new URLSearchParams({ after: next })}`} className="tap-link">
              {`Next ${TODAY_PAGE_SIZE} visits`}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Today | Visits" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
