import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionToast } from "~/components/action-toast";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff } from "~/features/staff/staff-access.server";
import { AdminBookingList, MoreLink } from "~/features/bookings/admin-booking-list";
import { bookingsHref, type BookingFilter } from "~/features/bookings/admin-bookings-url";
import { handleAdminBookingAction, loadAdminBookings } from "~/features/bookings/admin-bookings.server";
import { BOOKING_STATUS_LABELS, BOOKING_STATUSES } from "~/features/bookings/booking-constants";
import { BrowserScript } from "~/components/browser-script";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { privatePageMeta } from "~/utils/seo";
import { STATIC_PAGE } from "~/utils/static-page";

// Cards of forms that post as documents, a toast from the server: loaded as a document the page
// ships no React (decision 077, as Today in 076); its script only keeps a form from posting twice.
export const handle = STATIC_PAGE;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "bookings");
  const data = await loadAdminBookings(new URL(request.url));
  return json(
    { ...data, script: browserScriptUrl("admin-bookings") },
    { status: data.invalid ? 400 : 200, headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireStaff(request, context, "bookings");
  const url = new URL(request.url);
  // After a button, the admin stays on the same filter (and page).
  return handleAdminBookingAction(request, admin.id, `${url.pathname}${url.search}`);
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

const filterLink =
  "inline-flex min-h-11 items-center rounded-full border-2 px-4 py-1 font-semibold focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700";
const current = "border-brand-700 bg-brand-700 text-white dark:border-brand-300 dark:bg-brand-300 dark:text-brand-950";
const other =
  "border-slate-400 text-slate-800 hover:bg-slate-100 dark:border-slate-500 dark:text-slate-100 dark:hover:bg-slate-800";

export default function Bookings() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const filters: { label: string; filter: BookingFilter }[] = [
    { label: "All", filter: { status: null, unmatched: false } },
    ...BOOKING_STATUSES.map((status) => ({
      label: BOOKING_STATUS_LABELS[status],
      filter: { status, unmatched: false },
    })),
    { label: "Unmatched", filter: { status: null, unmatched: true } },
  ];
  const isCurrent = (f: BookingFilter) => f.status === data.filter.status && f.unmatched === data.filter.unmatched;

  return (
    <section aria-labelledby="bookings-heading">
      <ActionToast toast={actionData && "toast" in actionData ? actionData.toast : undefined} />
      <h2 id="bookings-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Bookings
      </h2>
      {data.invalid ? (
        <p
          role="alert"
          className="mt-4 rounded-lg bg-red-50 p-3 font-medium text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {data.invalid}
        </p>
      ) : null}
      <nav aria-label="Filter bookings" className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {filters.map(({ label, filter }) => (
            <li key={label}>
              <Link
                to={bookingsHref(filter)}
                aria-current={isCurrent(filter) ? "page" : undefined}
                className={`${filterLink} ${isCurrent(filter) ? current : other}`}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <section aria-labelledby="upcoming-bookings-heading" className="mt-8">
        <h3 id="upcoming-bookings-heading" className="text-xl font-bold text-slate-900 dark:text-white">
          Upcoming
        </h3>
        <AdminBookingList items={data.upcoming.rows} emptyText="No upcoming bookings" />
        {data.upcoming.next ? (
          <MoreLink to={bookingsHref(data.filter, { upcoming: data.upcoming.next })} label="Later upcoming bookings" />
        ) : null}
        {data.upcoming.paged ? <MoreLink to={bookingsHref(data.filter)} label="Back to the soonest" /> : null}
      </section>

      <section aria-labelledby="past-bookings-heading" className="mt-10">
        <h3 id="past-bookings-heading" className="text-xl font-bold text-slate-900 dark:text-white">
          Past
        </h3>
        <AdminBookingList items={data.past.rows} emptyText="No past bookings" />
        {data.past.next ? (
          <MoreLink to={bookingsHref(data.filter, { past: data.past.next })} label="Earlier past bookings" />
        ) : null}
        {data.past.paged ? <MoreLink to={bookingsHref(data.filter)} label="Back to the latest" /> : null}
      </section>
      <BrowserScript src={data.script} />
    </section>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  privatePageMeta(
    matches,
    "Bookings | Admin Dashboard",
    "Calendar bookings: confirm, cancel, assign and turn into visits.",
  );

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
