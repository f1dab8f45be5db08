import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { ActionToast } from "~/components/action-toast";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { BookingStatusBadge, VisitStatusBadge } from "~/components/status-badge";
import { requireStaff } from "~/features/staff/staff-access.server";
import { roleAllows } from "~/features/staff/capabilities";
import { gateCodeViewsOf } from "~/features/staff/gate-code.server";
import { GateCodeViewsSection } from "~/features/staff/gate-code-views-section";
import { customerBalanceLabel } from "~/features/billing/billing-pages.server";
import {
  handleAdminPlanAction,
  loadAdminPlan,
  type AdminPlanActionData,
} from "~/features/plans/admin-plan-page.server";
import { isAdminPlanIntent } from "~/features/plans/admin-plan-schema";
import { AdminPlanSection, FORM_PARAM } from "~/features/plans/admin-plan-section";
import { QuoteStatusBadge } from "~/features/quotes/quote-status-badge";
import { addDays, businessToday } from "~/features/visits/visit-dates";
import { YardDetails } from "~/features/yards/yard-details";
import { YardForm } from "~/features/yards/yard-form";
import { YardLocationForm } from "~/features/yards/yard-location-form";
import {
  saveYardLocationFromForm,
  YARD_LOCATION_INTENT,
  yardLocationView,
} from "~/features/yards/yard-location.server";
import { saveYardFromForm } from "~/features/yards/yard-profile.server";
import { yardView } from "~/features/yards/yard-view.server";
import { listRecentBookingsForCustomer } from "~/models/booking.server";
import { getCustomer, listQuoteRequestsByEmail } from "~/models/customer.server";
import { listVisitsForCustomer } from "~/models/visit.server";
import { getYardProfile } from "~/models/yard-profile.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { redirectWithSuccess } from "~/utils/toast.server";
import { customerFeedbackView } from "~/features/reviews/customer-feedback.server";
import { CustomerFeedbackSection } from "~/features/reviews/customer-feedback-section";
import { linkClass, tapLinkClass } from "~/components/ui-classes";

const notFound = () => new Response("Customer not found", { status: 404 });

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context, "customers");
  const customer = await getCustomer(params.customerId ?? "");
  if (!customer) throw notFound();
  const [yard, visits, bookings, quotes, plan, billing, feedback, gateCodeViews] = await Promise.all([
    getYardProfile(customer.id),
    listVisitsForCustomer(customer.id, { limit: 20 }),
    listRecentBookingsForCustomer(customer.id, 10),
    listQuoteRequestsByEmail(customer.email, 10),
    loadAdminPlan(customer.id),
    customerBalanceLabel(customer.id),
    customerFeedbackView(customer.id),
    // The log of gate-code reveals is the owner's (decision 128).
    roleAllows(staff.staffRole, "staff") ? gateCodeViewsOf(customer.id) : null,
  ]);
  const today = businessToday();
  return json(
    {
      customer: {
        id: customer.id,
        email: customer.email,
        name: customer.full_name,
        since: formatBusinessDate(customer.created_at),
      },
      yard: yardView(yard),
      location: yardLocationView(yard),
      gateCodeViews,
      plan,
      billing,
      feedback,
      allVisitsHref: `/admin-dashboard/visits?${new URLSearchParams({
        customer: customer.id,
        from: addDays(today, -365),
        to: addDays(today, 365),
      })}`,
      visits: visits.map((v) => ({
        id: v.id,
        serviceType: v.service_type,
        date: v.service_date.toISOString(),
        dateLabel: formatBusinessDateTime(v.service_date),
        status: v.status,
      })),
      bookings: bookings.map((b) => ({
        id: b.id,
        serviceType: b.service_type,
        dateLabel: formatBusinessDateTime(b.booking_date),
        status: b.status,
      })),
      quotes: quotes.map((q) => ({
        id: q.id,
        service: q.service,
        status: q.status,
        received: formatBusinessDate(q.created_at),
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

// The page's forms, told apart by `intent`: the Plan section's five, and the yard profile's
// ("yard", or none: the form posted no intent before the Plan section came).
export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireStaff(request, context, "customers");
  const customer = await getCustomer(params.customerId ?? "");
  if (!customer) throw notFound();
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const intent = form?.get("intent") ?? null;
  if (form && isAdminPlanIntent(intent)) {
    return handleAdminPlanAction(intent, form, {
      customerId: customer.id,
      admin: { id: admin.id, name: admin.fullName ?? admin.email },
    });
  }
  if (form && intent === YARD_LOCATION_INTENT) {
    const saved = await saveYardLocationFromForm(form, customer.id, admin.id);
    if (!saved.ok) return json({ locationResult: saved.lastResult }, { status: 400 });
    return redirectWithSuccess(`/admin-dashboard/customers/${customer.id}`, {
      message: "Success",
      description: "Yard location saved",
    });
  }
  if (intent !== null && intent !== "yard") {
    return json(
      { toast: { type: "error" as const, message: "Error", description: "Unknown action" } },
      { status: 400 },
    );
  }
  const result = await saveYardFromForm(request, customer.id, admin.id);
  if (!result.ok) return json({ lastResult: result.lastResult }, { status: result.status });
  return redirectWithSuccess(`/admin-dashboard/customers/${customer.id}`, {
    message: "Success",
    description: "Yard profile saved",
  });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

const h3Class = "text-xl font-semibold text-slate-900 dark:text-white";

export default function CustomerPage() {
  const { customer, yard, location, plan, billing, visits, bookings, quotes, allVisitsHref, feedback, gateCodeViews } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const yardResult = actionData && "lastResult" in actionData ? actionData : undefined;
  const planResult = actionData && "intent" in actionData ? (actionData as AdminPlanActionData) : undefined;
  const locationResult = actionData && "locationResult" in actionData ? actionData.locationResult : null;
  const otherToast = actionData && !yardResult && !planResult && "toast" in actionData ? actionData.toast : undefined;
  const [searchParams] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  return (
    <article aria-labelledby="customer-heading">
      <Link to="/admin-dashboard/customers" className={tapLinkClass}>
        <span aria-hidden="true">←&nbsp;</span>All customers
      </Link>
      <h2 id="customer-heading" className="mt-2 text-2xl font-bold text-slate-900 dark:text-white">
        {customer.name ?? customer.email}
      </h2>
      <p className="mt-1">
        <a href={`mailto:${customer.email}`} className={linkClass}>
          {customer.email}
        </a>{" "}
        · customer since {customer.since}
      </p>
      <p className="mt-1" data-testid="customer-balance">
        Balance: <strong>{billing.balance}</strong>
        {billing.owes ? " open" : ""}
        {billing.credit ? ` · credit on file ${billing.credit}` : ""}
      </p>
      <ActionToast toast={otherToast} />

      <AdminPlanSection
        section={plan}
        customerId={customer.id}
        yardDogCount={yard?.dogCount ?? null}
        actionData={planResult}
      />

      <section aria-labelledby="yard-heading" className="mt-8">
        <h3 id="yard-heading" className={h3Class}>
          Yard
        </h3>
        <YardDetails yard={yard} idPrefix="customer-yard" />
        {/* The form renders when asked for (a link: without JavaScript too), or again after a
            refused save so its messages are seen; every view of the page does not pay for it. */}
        {yardResult || searchParams.get(FORM_PARAM) === "yard" ? (
          <div className="mt-4">
            <h4 className="text-lg font-semibold text-slate-900 dark:text-white">Edit yard profile</h4>
            <YardForm yard={yard} lastResult={yardResult?.lastResult} />
          </div>
        ) : (
          <Link to={`?${FORM_PARAM}=yard#yard-heading`} className={`${tapLinkClass} mt-4`}>
            Edit yard profile
          </Link>
        )}
        <YardLocationForm location={location} result={locationResult} busy={busy} />
      </section>
      {gateCodeViews ? <GateCodeViewsSection views={gateCodeViews} /> : null}

      <section aria-labelledby="visits-heading" className="mt-8">
        <h3 id="visits-heading" className={h3Class}>
          Visits
        </h3>
        {visits.length === 0 ? (
          <p className="mt-2">No visits yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
            {visits.map((v) => (
              <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link to={`/admin-dashboard/visits/${v.id}`} className={tapLinkClass}>
                  {v.serviceType}, <time dateTime={v.date}>{v.dateLabel}</time>
                </Link>
                <VisitStatusBadge status={v.status} />
              </li>
            ))}
          </ul>
        )}
        <Link to={allVisitsHref} className={`${tapLinkClass} mt-2`}>
          All of this customer&apos;s visits
        </Link>
      </section>

      <section aria-labelledby="bookings-heading" className="mt-8">
        <h3 id="bookings-heading" className={h3Class}>
          Bookings
        </h3>
        {bookings.length === 0 ? (
          <p className="mt-2">No bookings.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
            {bookings.map((b) => (
              <li key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {b.serviceType}, {b.dateLabel}
                </span>
                <BookingStatusBadge status={b.status} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="quotes-heading" className="mt-8">
        <h3 id="quotes-heading" className={h3Class}>
          Quote requests
        </h3>
        {quotes.length === 0 ? (
          <p className="mt-2">No quote requests from this e-mail address.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
            {quotes.map((q) => (
              <li key={q.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link to={`/admin-dashboard/quotes/${q.id}`} className={tapLinkClass}>
                  {q.service}, received {q.received}
                </Link>
                <QuoteStatusBadge status={q.status} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <CustomerFeedbackSection feedback={feedback} headingClass={h3Class} />
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.customer.name ?? data.customer.email} | Customers` : "Customer | Admin Dashboard" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
