import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff, todayScopeFor } from "~/features/staff/staff-access.server";
import { visitsListFor } from "~/features/staff/visit-page-reach.server";
import { OnMyWayForm } from "~/features/notices/on-my-way-form";
import { RouteStopCard } from "~/features/route/route-stop-card";
import { RouteSummary } from "~/features/route/route-summary";
import { handleTodayAction, loadToday, TODAY_PAGE_SIZE } from "~/features/route/today-route.server";
import { STATIC_PAGE } from "~/utils/static-page";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";

export { TODAY_PAGE_SIZE };

// Cards, links and plain forms: the page ships no React (decision 076, as 066).
export const handle = STATIC_PAGE;

// "Today": the field's view on a phone, in route order (docs/decisions/093). Says whether a gate
// code is on file, never what it is (the code is on the visit's page, behind "Show gate code").
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context, "field");
  // Each stop carries when "On my way" was sent (onMyWaySentAt), read with the day's visits.
  // A technician's Today holds only the visits assigned to them (decision 123).
  const page = await loadToday(new URL(request.url), undefined, todayScopeFor(staff));
  return json(
    { ...page, back: visitsListFor(staff) },
    {
      status: page.pageGone ? 400 : 200,
      headers: { "Cache-Control": "private, no-store" },
    },
  );
}

// "Move up", "Move down" and "Optimise again"; each answers with the page again (303). The order
// is the whole business's route for now, so only those who see every visit change it.
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireStaff(request, context, "visits");
  const result = await handleTodayAction(request, admin.id);
  if (!result.ok) {
    if (result.status === 413 || result.status === 400) {
      return json({ error: result.description }, { status: result.status });
    }
    return redirectWithError("/admin-dashboard/visits/today", { message: "Error", description: result.description });
  }
  const back = `/admin-dashboard/visits/today${result.stopId ? `#stop-${result.stopId}` : ""}`;
  return redirectWithSuccess(back, { message: "Success", description: result.description });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function Today() {
  const { dayLabel, visits, pageGone, paged, next, route, routeNote, back } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="today-heading" className="mx-auto max-w-xl">
      <Link to={back.to} className="tap-link">
        <span aria-hidden="true">←&nbsp;</span>
        {back.label}
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
      {route ? <RouteSummary route={route} /> : null}
      {routeNote ? <p className="mt-3">{routeNote}</p> : null}
      {visits.length === 0 ? (
        <p className="mt-6 text-lg">{paged ? "No later visits today." : "No visits today."}</p>
      ) : (
        <ol className="mt-4 space-y-4">
          {visits.map((visit) => (
            <RouteStopCard
              key={visit.id}
              stop={visit}
              actions={
                visit.status === "scheduled" ? (
                  <OnMyWayForm
                    visitId={visit.id}
                    returnTo="today"
                    sentAt={visit.onMyWaySentAt}
                    estimate={visit.arrivalAt}
                  />
                ) : null
              }
            />
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
