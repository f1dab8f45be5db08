import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { tapLinkClass } from "~/components/ui-classes";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { BookingCard } from "~/features/bookings/booking-card";
import { DashboardHeader } from "~/components/dashboard-header";
import { MediaView, type MediaViewItem } from "~/features/media/media-view";
import { BookingStatusBadge, VisitStatusBadge } from "~/components/status-badge";
import { bookingCalendarLink, getBookingCalendarUrl } from "~/features/bookings/booking-calendar.server";
import { listUpcomingBookingsForCustomer } from "~/models/booking.server";
import { mediaKindOf } from "~/features/media/visit-media.server";
import { listRecentMediaForCustomer } from "~/models/visit-media.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { listRecentCompletedVisitsForCustomer } from "~/models/visit.server";
import { startOfBusinessToday } from "~/features/visits/visit-dates";
import { requireUser } from "~/features/accounts/auth.server";
import { YourPlanCard } from "~/features/plans/your-plan-card";
import { loadYourPlanCard } from "~/features/plans/your-plan.server";
import { VerifyEmailNotice } from "~/features/accounts/verify-email-notice";
import { redirectWithError } from "~/utils/toast.server";
import { privatePageMeta } from "~/utils/seo";

/** SPEC 9: at most this many media items on the dashboard, from the visits shown. */
const MEDIA_SHOWN = 4;
const VISITS_SHOWN = 5;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  // Every query is scoped to the signed-in user's id; nothing here takes an id from the URL.
  // Completed visits and their photos; bookings from today on, soonest first (decision 047).
  const [recentVisits, bookings, calendarUrl, media] = await Promise.all([
    listRecentCompletedVisitsForCustomer(user.id, VISITS_SHOWN),
    listUpcomingBookingsForCustomer(user.id, startOfBusinessToday()),
    getBookingCalendarUrl(),
    listRecentMediaForCustomer(user.id, VISITS_SHOWN, MEDIA_SHOWN),
  ]);
  const yourPlan = await loadYourPlanCard(user.id);

  // Before and after of one visit are shown together, visits in order of their newest item.
  const visitMedia: { visitId: string; title: string; items: MediaViewItem[] }[] = [];
  for (const m of media) {
    const visit = recentVisits.find((v) => v.id === m.service_id);
    if (!visit) continue;
    let group = visitMedia.find((g) => g.visitId === visit.id);
    if (!group) {
      group = {
        visitId: visit.id,
        title: `${visit.service_type}, ${formatBusinessDate(visit.service_date)}`,
        items: [],
      };
      visitMedia.push(group);
    }
    group.items.push({
      id: m.id,
      url: `/resources/media/${m.id}`,
      kind: mediaKindOf(m),
      imageType: m.image_type,
      serviceType: visit.service_type,
      dateLabel: formatBusinessDate(visit.service_date),
    });
  }
  for (const group of visitMedia)
    group.items.sort((a, b) => (a.imageType === b.imageType ? 0 : a.imageType === "before" ? -1 : 1));

  return json(
    {
      email: user.email,
      emailVerified: user.emailVerified,
      yourPlan,
      calendarUrl: calendarUrl
        ? bookingCalendarLink(calendarUrl, { id: user.id, name: user.fullName, email: user.email })
        : null,
      recentVisits: recentVisits.map((s) => ({
        id: s.id,
        serviceType: s.service_type,
        dateLabel: formatBusinessDateTime(s.service_date),
        status: s.status,
        notes: s.notes,
      })),
      visitMedia,
      bookings: bookings.map((b) => ({
        id: b.id,
        serviceType: b.service_type,
        dateLabel: formatBusinessDateTime(b.booking_date),
        status: b.status,
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

// The Book Appointment form, as posted with JavaScript off.
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData().catch(() => null);
  if (form?.get("agree") !== "yes") {
    return redirectWithError("/customer-dashboard", {
      message: "Agreement Required",
      description: "Please agree to the Terms of Service before booking.",
    });
  }
  const calendarUrl = await getBookingCalendarUrl();
  if (!calendarUrl) {
    return redirectWithError("/customer-dashboard", {
      message: "Booking Unavailable",
      description: "Online booking is not available right now. Please try again later.",
    });
  }
  return redirect(bookingCalendarLink(calendarUrl, { id: user.id, name: user.fullName, email: user.email }));
}

const card = "rounded-2xl border border-slate-300 p-6 shadow-sm dark:border-slate-600";
const cardHeading = "text-2xl font-bold text-slate-900 dark:text-white";
const empty = "mt-4 text-slate-700 dark:text-slate-300";

export default function CustomerDashboard() {
  const { email, emailVerified, calendarUrl, recentVisits, visitMedia, bookings } = useLoaderData<typeof loader>();
  const { yourPlan } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <DashboardHeader title="Welcome back" subtitle={email} loadingText="Loading your dashboard..." />
      {emailVerified ? null : <VerifyEmailNotice />}

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <YourPlanCard plan={yourPlan} className="lg:col-span-2" />
        <section aria-labelledby="billing-heading" className={`${card} lg:col-span-2`}>
          <h2 id="billing-heading" className={cardHeading}>
            Billing
          </h2>
          <p className="mt-2 text-slate-700 dark:text-slate-300">Your open balance, invoices and PDFs.</p>
          <p className="mt-3">
            <Link to="/customer-dashboard/billing" className={tapLinkClass}>
              See your billing
            </Link>
          </p>
        </section>
        <BookingCard calendarUrl={calendarUrl} />

        <section aria-labelledby="services-heading" className={card}>
          <h2 id="services-heading" className={cardHeading}>
            Recent Services
          </h2>
          <p className="mt-1 text-slate-700 dark:text-slate-300">Your last 5 completed services</p>
          {recentVisits.length === 0 ? (
            <p className={empty}>No services yet</p>
          ) : (
            <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-700">
              {recentVisits.map((s) => (
                <li key={s.id} className="flex flex-wrap items-start justify-between gap-2 py-3">
                  <div>
                    <Link
                      to={`/customer-dashboard/visits/${s.id}`}
                      className="font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
                    >
                      {s.serviceType}
                    </Link>
                    <p className="text-sm text-slate-700 dark:text-slate-300">{s.dateLabel}</p>
                    {s.notes ? <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{s.notes}</p> : null}
                  </div>
                  <VisitStatusBadge status={s.status} />
                </li>
              ))}
            </ul>
          )}
          <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
            <Link
              to="/customer-dashboard/visits"
              className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
            >
              Visit history
            </Link>
            <Link
              to="/customer-dashboard/yard"
              className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
            >
              Your Yard
            </Link>
            <Link
              to="/customer-dashboard/feedback"
              className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
            >
              Tell us what to improve
            </Link>
          </p>
        </section>

        <section aria-labelledby="media-heading" className={`${card} lg:col-span-2`}>
          <h2 id="media-heading" className={cardHeading}>
            Service Photos & Videos
          </h2>
          {visitMedia.length === 0 ? (
            <p className={empty}>No media yet</p>
          ) : (
            <ul className="mt-4 space-y-6">
              {visitMedia.map((visit) => (
                <li key={visit.visitId}>
                  <h3 className="text-lg font-semibold text-slate-900 dark:text-white">{visit.title}</h3>
                  <ul className="mt-2 grid gap-4 sm:grid-cols-2">
                    {visit.items.map((item) => (
                      <li key={item.id}>
                        <figure>
                          <MediaView item={item} />
                          <figcaption className="mt-1 text-sm font-medium capitalize text-slate-700 dark:text-slate-300">
                            {item.imageType}
                          </figcaption>
                        </figure>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="bookings-heading" className={`${card} lg:col-span-2`}>
          <h2 id="bookings-heading" className={cardHeading}>
            Upcoming Bookings
          </h2>
          {bookings.length === 0 ? (
            <p className={empty}>No upcoming bookings</p>
          ) : (
            <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-700">
              {bookings.map((b) => (
                <li key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                  <div>
                    <p className="font-semibold text-slate-900 dark:text-white">{b.serviceType}</p>
                    <p className="text-sm text-slate-700 dark:text-slate-300">{b.dateLabel}</p>
                  </div>
                  <BookingStatusBadge status={b.status} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(matches, "Customer Dashboard", "Your services, before and after photos, and bookings.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
