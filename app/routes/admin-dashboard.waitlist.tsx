import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff } from "~/features/staff/staff-access.server";
import { countWaitlistByZip, listWaitlist } from "~/models/waitlist.server";
import { formatBusinessDate } from "~/utils/business-time";
import { getDb } from "~/utils/db.server";
import { STATIC_PAGE } from "~/utils/static-page";
import { isUuid } from "~/utils/uuid";

// The waitlist of /start (issue 37 item 1, decision 129): who asked to hear when their ZIP opens,
// for the owner and the office (the customers capability), newest first, 50 at a time.
export const handle = STATIC_PAGE;

const PAGE_SIZE = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "customers");
  const url = new URL(request.url);
  const zip = /^\d{5}$/.test(url.searchParams.get("zip") ?? "") ? url.searchParams.get("zip")! : undefined;
  const [at, id] = (url.searchParams.get("after") ?? "").split("~");
  const after = at && id && isUuid(id) && !Number.isNaN(Date.parse(at)) ? { createdAt: at, id } : undefined;
  const db = await getDb();
  const [rows, byZip] = await Promise.all([
    listWaitlist(db, { limit: PAGE_SIZE + 1, zip, after }),
    countWaitlistByZip(db, 20),
  ]);
  const page = rows.slice(0, PAGE_SIZE);
  const last = page.at(-1);
  return json(
    {
      zip: zip ?? null,
      entries: page.map((row) => ({
        id: row.id,
        email: row.email,
        zip: row.zip,
        when: formatBusinessDate(row.created_at),
      })),
      byZip: byZip.map((row) => ({ zip: row.zip, entries: Number(row.entries) })),
      next:
        rows.length > PAGE_SIZE && last
          ? `?${new URLSearchParams({ ...(zip ? { zip } : {}), after: `${new Date(last.created_at).toISOString()}~${last.id}` })}`
          : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function Waitlist() {
  const { zip, entries, byZip, next } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="waitlist-heading" className="grid gap-6">
      <h1 id="waitlist-heading" className="text-2xl font-bold">
        Waitlist{zip ? ` for ${zip}` : ""}
      </h1>
      <p>People outside the service area who asked to hear when we serve their ZIP code (from Start online).</p>
      {byZip.length > 0 ? (
        <section aria-labelledby="by-zip-heading">
          <h2 id="by-zip-heading" className="text-lg font-semibold">
            By ZIP code
          </h2>
          <ul className="flex flex-wrap gap-3">
            {byZip.map((row) => (
              <li key={row.zip}>
                <a href={`/admin-dashboard/waitlist?zip=${row.zip}`} className="underline">
                  {row.zip}: {row.entries}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {entries.length === 0 ? (
        <p>Nobody is on the waitlist{zip ? " for this ZIP code" : ""}.</p>
      ) : (
        <table className="w-full text-left">
          <caption className="sr-only">Waitlist entries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">ZIP</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <a href={`mailto:${entry.email}`} className="underline">
                    {entry.email}
                  </a>
                </td>
                <td>{entry.zip}</td>
                <td>{entry.when}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next ? (
        <p>
          <a href={`/admin-dashboard/waitlist${next}`} className="underline">
            Older entries
          </a>
        </p>
      ) : null}
      {zip ? (
        <p>
          <a href="/admin-dashboard/waitlist" className="underline">
            Everyone on the waitlist
          </a>
        </p>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Waitlist" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
