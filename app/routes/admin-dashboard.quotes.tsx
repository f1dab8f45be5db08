import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useOutlet } from "@remix-run/react";
import { QUOTE_STATUSES, type QuoteStatus } from "~/features/quotes/quote-constants";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { OutsideAreaBadge, QuoteStatusBadge } from "~/features/quotes/quote-status-badge";
import { getQuoteServiceOptions } from "~/content/content.server";
import {
  countQuoteRequestsByStatus,
  listQuoteRequests,
  QUOTE_COUNT_CAP,
  type QuotePageAnchor,
} from "~/models/quote-request.server";
import { requireStaff } from "~/features/staff/staff-access.server";
import { listQuoteOwnerEmailStatuses } from "~/features/quotes/quote-notifications.server";
import { formatQuoteTime, QUOTE_STATUS_LABELS } from "~/features/quotes/quote-format";
import { dogCountLabel } from "~/features/quotes/quote-schema";
import { STATIC_PAGE } from "~/utils/static-page";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui-classes";

const PAGE_SIZE = 25;

/** Where the page starts, from the URL: ?older=<id>, ?newer=<id>, ?oldest=1, or the newest requests. */
function anchorFrom(url: URL): QuotePageAnchor {
  const older = url.searchParams.get("older");
  if (older) return { from: "older", id: older };
  const newer = url.searchParams.get("newer");
  if (newer) return { from: "newer", id: newer };
  if (url.searchParams.get("oldest") === "1") return { from: "oldest" };
  return { from: "newest" };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "quotes");
  const url = new URL(request.url);
  const requested = url.searchParams.get("status") || null;
  const status = QUOTE_STATUSES.find((value) => value === requested);
  const invalidStatus = requested !== null && !status;
  const anchor = anchorFrom(url);

  const [page, counts, options] = await Promise.all([
    listQuoteRequests({ status, anchor, pageSize: PAGE_SIZE }),
    countQuoteRequestsByStatus(QUOTE_STATUSES),
    getQuoteServiceOptions(),
  ]);
  const labels = new Map(options.map((option) => [option.value, option.label]));
  // The e-mail to the business of each row, read from the outbox (docs/decisions/034).
  const emails = await listQuoteOwnerEmailStatuses(page.items.map((quote) => quote.id));
  const first = page.items[0];
  const last = page.items.at(-1);
  return json(
    {
      status: status ?? null,
      invalidStatus: invalidStatus ? `There is no status "${requested}". Showing all quote requests.` : null,
      pageGone: !page.anchorFound,
      older: page.hasOlder && last ? last.id : null,
      newer: page.hasNewer && first ? first.id : null,
      atNewest: anchor.from === "newest" || !page.hasNewer,
      atOldest: anchor.from === "oldest" || !page.hasOlder,
      counts,
      quotes: page.items.map((quote) => ({
        id: quote.id,
        name: quote.name,
        service: labels.get(quote.service) ?? quote.service,
        dogs: dogCountLabel(quote.dogs),
        zip: quote.zip,
        outsideServiceArea: quote.outside_service_area,
        status: quote.status,
        mailStatus: emails.get(quote.id) ?? null,
        createdAt: quote.created_at.toISOString(),
        received: formatQuoteTime(quote.created_at),
      })),
    },
    { status: invalidStatus ? 400 : 200, headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

// Filters and rows are links (a quote opens beside the list, hydrated as its own route): loaded
// as a document the inbox ships no React (decision 077).
export const handle = STATIC_PAGE;

type PageLink = { older: string } | { newer: string } | { oldest: true } | null;

function filterHref(status: QuoteStatus | null, at: PageLink = null) {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (at && "older" in at) params.set("older", at.older);
  if (at && "newer" in at) params.set("newer", at.newer);
  if (at && "oldest" in at) params.set("oldest", "1");
  const query = params.toString();
  return query ? `/admin-dashboard/quotes?${query}` : "/admin-dashboard/quotes";
}

const countLabel = (count: number) =>
  count > QUOTE_COUNT_CAP ? `${QUOTE_COUNT_CAP.toLocaleString("en-US")}+` : String(count);

export default function QuoteRequests() {
  const outlet = useOutlet();
  const data = useLoaderData<typeof loader>();
  // A request's detail page takes the place of the list.
  if (outlet) return outlet;

  const filters: { status: QuoteStatus | null; label: string; count: number }[] = [
    { status: null, label: "All", count: data.counts.all },
    ...QUOTE_STATUSES.map((status) => ({
      status,
      label: QUOTE_STATUS_LABELS[status],
      count: data.counts.byStatus[status] ?? 0,
    })),
  ];

  return (
    <section aria-labelledby="quotes-heading">
      <h2 id="quotes-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Quote Requests
      </h2>
      {data.invalidStatus ? (
        <p
          role="alert"
          className="mt-4 rounded-lg bg-red-50 p-3 font-medium text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {data.invalidStatus}
        </p>
      ) : null}
      <nav aria-label="Filter quote requests by status" className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {filters.map((filter) => {
            const current = filter.status === data.status;
            return (
              <li key={filter.label}>
                <Link
                  to={filterHref(filter.status)}
                  aria-current={current ? "page" : undefined}
                  className={current ? primaryButtonClass : secondaryButtonClass}
                >
                  {filter.label} <span className="ml-1 font-normal">({countLabel(filter.count)})</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      {data.pageGone ? (
        <p className="mt-8 text-lg text-slate-700 dark:text-slate-200">
          That page no longer exists.{" "}
          <Link to={filterHref(data.status)} className="font-semibold text-brand-800 underline dark:text-brand-200">
            Show the newest quote requests
          </Link>
        </p>
      ) : data.quotes.length === 0 ? (
        <p className="mt-8 text-lg text-slate-700 dark:text-slate-200">
          {data.status
            ? `No ${QUOTE_STATUS_LABELS[data.status].toLowerCase()} quote requests.`
            : "No quote requests yet."}
        </p>
      ) : (
        <div
          className="mt-6 overflow-x-auto rounded-xl border border-slate-300 dark:border-slate-600"
          role="region"
          aria-label="Quote requests table"
          tabIndex={0}
        >
          <table className="data-table w-full min-w-[52rem] text-left">
            <caption className="sr-only">
              {data.status ? `${QUOTE_STATUS_LABELS[data.status]} quote requests` : "All quote requests"}, newest first
            </caption>
            <thead className="bg-slate-100 text-sm uppercase tracking-wide text-slate-700 dark:bg-slate-800 dark:text-slate-200">
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Name</th>
                <th scope="col">Service</th>
                <th scope="col">Dogs</th>
                <th scope="col">ZIP</th>
                <th scope="col">Status</th>
                <th scope="col">E-mail to you</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
              {data.quotes.map((quote) => (
                <tr key={quote.id}>
                  <td className="whitespace-nowrap">
                    <time dateTime={quote.createdAt}>{quote.received}</time>
                  </td>
                  <td>
                    <Link to={`/admin-dashboard/quotes/${quote.id}`} className="row-link">
                      {quote.name}
                    </Link>
                  </td>
                  <td>{quote.service}</td>
                  <td className="whitespace-nowrap">{quote.dogs}</td>
                  <td>
                    <span className="mr-2">{quote.zip}</span>
                    {quote.outsideServiceArea ? <OutsideAreaBadge /> : null}
                  </td>
                  <td>
                    <QuoteStatusBadge status={quote.status} />
                  </td>
                  <td>{quote.mailStatus ?? "None on record"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {data.atNewest && data.atOldest ? null : (
        <nav aria-label="Pages" className="mt-6 flex flex-wrap items-center gap-4">
          {data.atNewest ? null : (
            <Link to={filterHref(data.status)} className={secondaryButtonClass}>
              Newest
            </Link>
          )}
          {data.newer ? (
            <Link to={filterHref(data.status, { newer: data.newer })} className={secondaryButtonClass}>
              Newer
            </Link>
          ) : null}
          {data.older ? (
            <Link to={filterHref(data.status, { older: data.older })} className={secondaryButtonClass}>
              Older
            </Link>
          ) : null}
          {data.atOldest ? null : (
            <Link to={filterHref(data.status, { oldest: true })} className={secondaryButtonClass}>
              Oldest
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [
  { title: "Quote Requests | Admin Dashboard" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
