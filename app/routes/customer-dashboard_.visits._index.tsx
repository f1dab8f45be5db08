import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { VisitStatusBadge } from "~/components/status-badge";
import { requireUser } from "~/features/accounts/auth.server";
import { decodeCursor, encodeCursor } from "~/features/visits/visit-dates";
import { listVisitsForCustomer } from "~/models/visit.server";
import { formatBusinessDateTime } from "~/utils/business-time";
import { tapLinkClass } from "~/components/ui-classes";

const PAGE_SIZE = 20;

// "Visit history": every visit of the signed-in customer, newest first, 20 a page (keyset).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const beforeParam = url.searchParams.get("before");
  const before = decodeCursor(beforeParam);
  if (beforeParam && !before) throw new Response("That page does not exist", { status: 400 });
  const rows = await listVisitsForCustomer(user.id, { before, limit: PAGE_SIZE + 1 });
  const page = rows.slice(0, PAGE_SIZE);
  const last = page.at(-1);
  return json(
    {
      paged: Boolean(before),
      next: rows.length > PAGE_SIZE && last ? encodeCursor({ date: last.service_date, id: last.id }) : null,
      visits: page.map((v) => ({
        id: v.id,
        serviceType: v.service_type,
        date: v.service_date.toISOString(),
        dateLabel: formatBusinessDateTime(v.service_date),
        status: v.status,
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function VisitHistory() {
  const { visits, next, paged } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Link to="/customer-dashboard" className={tapLinkClass}>
        <span aria-hidden="true">←&nbsp;</span>Dashboard
      </Link>
      <h1 className="mt-2 text-3xl font-bold text-slate-900 dark:text-white">Visit history</h1>
      {visits.length === 0 ? (
        <p className="mt-6 text-lg">No visits yet.</p>
      ) : (
        <ul className="mt-6 divide-y divide-slate-200 dark:divide-slate-700">
          {visits.map((v) => (
            <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div>
                <Link to={`/customer-dashboard/visits/${v.id}`} className={tapLinkClass}>
                  {v.serviceType}
                </Link>
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  <time dateTime={v.date}>{v.dateLabel}</time>
                </p>
              </div>
              <VisitStatusBadge status={v.status} />
            </li>
          ))}
        </ul>
      )}
      <nav aria-label="Pages" className="mt-6 flex gap-6">
        {paged ? (
          <Link to="/customer-dashboard/visits" className={tapLinkClass}>
            Newest visits
          </Link>
        ) : null}
        {next ? (
          <Link to={`/customer-dashboard/visits?${new URLSearchParams({ before: next })}`} className={tapLinkClass}>
            Older visits
          </Link>
        ) : null}
      </nav>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Visit history" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
