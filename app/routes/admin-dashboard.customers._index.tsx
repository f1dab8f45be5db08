import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field } from "~/components/forms";
import { primaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { requireAdmin } from "~/features/accounts/auth.server";
import { searchCustomers } from "~/models/customer.server";
import { formatBusinessDate } from "~/utils/business-time";
import { isUuid } from "~/utils/uuid";
import { STATIC_PAGE } from "~/utils/static-page";

const PAGE_SIZE = 25;

/** The cursor of the next page: "<email>~<id>" (an e-mail never contains "~" followed by a uuid). */
function decode(value: string | null) {
  if (!value) return null;
  const at = value.lastIndexOf("~");
  const email = value.slice(0, at);
  const id = value.slice(at + 1);
  return at > 0 && isUuid(id) ? { email, id } : null;
}

// Customers: server-side search by name or e-mail (ILIKE, limited), keyset-paged.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim();
  if (q.length > 100) throw new Response("Search for at most 100 characters", { status: 400 });
  const afterParam = url.searchParams.get("after");
  const after = decode(afterParam);
  if (afterParam && !after) throw new Response("That page does not exist", { status: 400 });
  const rows = await searchCustomers({ q: q || undefined, after, limit: PAGE_SIZE + 1 });
  const page = rows.slice(0, PAGE_SIZE);
  const last = page.at(-1);
  return json(
    {
      q,
      paged: Boolean(after),
      next: rows.length > PAGE_SIZE && last ? `${last.email}~${last.id}` : null,
      customers: page.map((c) => ({
        id: c.id,
        email: c.email,
        name: c.full_name,
        verified: c.email_verified_at !== null,
        since: formatBusinessDate(c.created_at),
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

// A search form that GETs and a list of links: loaded as a document, no React (decision 077).
export const handle = STATIC_PAGE;

export default function Customers() {
  const { q, customers, next, paged } = useLoaderData<typeof loader>();
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
        <button type="submit" className={primaryButtonClass}>
          Search
        </button>
      </Form>
      {customers.length === 0 ? (
        <p className="mt-6 text-lg">{q ? `No customers match "${q}".` : "No customers yet."}</p>
      ) : (
        <ul className="mt-6 divide-y divide-slate-200 dark:divide-slate-700">
          {customers.map((c) => (
            <li key={c.id} className="row-head items-center py-2">
              <Link to={`/admin-dashboard/customers/${c.id}`} className={tapLinkClass}>
                {c.name ?? c.email}
              </Link>
              <span className="break-all text-slate-700 dark:text-slate-200">{`${c.email}${c.verified ? "" : " (unverified)"} · since ${c.since}`}</span>
            </li>
          ))}
        </ul>
      )}
      <nav aria-label="Pages" className="mt-6 flex gap-6">
        {paged ? (
          <Link
            to={q ? `/admin-dashboard/customers?${new URLSearchParams({ q })}` : "/admin-dashboard/customers"}
            className={tapLinkClass}
          >
            First page
          </Link>
        ) : null}
        {next ? (
          <Link
            to={`/admin-dashboard/customers?${new URLSearchParams(q ? { q, after: next } : { after: next })}`}
            className={tapLinkClass}
          >
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
