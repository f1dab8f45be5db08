import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionToast } from "~/components/action-toast";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff } from "~/features/staff/staff-access.server";
import { mediaKindOf } from "~/features/media/visit-media.server";
import { discardRequestBody, handleMediaUpload } from "~/features/media/upload-media.server";
import { UploadTab } from "~/features/media/upload-tab";
import { adminDashboardUrl, type AdminVisitsTab } from "~/features/media/admin-dashboard-url";
import { CreateVisitForm } from "~/features/visits/create-visit-form";
import { createVisitFromForm } from "~/features/visits/create-visit.server";
import { listMediaForVisits } from "~/models/visit-media.server";
import { getVisit } from "~/models/visit.server";
import { CUSTOMER_QUERY_MAX_LENGTH } from "~/features/visits/customer-options";
import { CUSTOMER_SEARCH_PARAM } from "~/features/visits/customer-picker";
import { findCustomerOptions, getCustomerOption } from "~/features/visits/customer-search.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { privatePageMeta } from "~/utils/seo";

// "Services & Uploads": create a visit, then upload its before/after media. The tab, the
// current visit and the chosen customer all live in the URL.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "visits");
  const url = new URL(request.url);
  const tab: AdminVisitsTab = url.searchParams.get("tab") === "upload" ? "upload" : "create";
  // The picker searches (at most 20 matches); it never lists every customer (docs/decisions/064).
  const rawQuery = (url.searchParams.get(CUSTOMER_SEARCH_PARAM) ?? "").trim();
  const customerQuery = rawQuery.slice(0, CUSTOMER_QUERY_MAX_LENGTH);
  const visit = await getVisit(url.searchParams.get("service") ?? "");
  const [media, selectedCustomer, customerMatches] = await Promise.all([
    visit ? listMediaForVisits([visit.id]) : [],
    getCustomerOption(url.searchParams.get("customer") ?? visit?.customer_id ?? null),
    tab === "create" && customerQuery ? findCustomerOptions(customerQuery) : null,
  ]);
  return json(
    {
      tab,
      selectedCustomer,
      selectedCustomerId: selectedCustomer?.id ?? null,
      customerMatches,
      customerQuery,
      currentVisit: visit
        ? {
            id: visit.id,
            customerId: visit.customer_id,
            customerLabel: visit.customer_name
              ? `${visit.customer_name} (${visit.customer_email})`
              : visit.customer_email,
            serviceType: visit.service_type,
            dateLabel: formatBusinessDateTime(visit.service_date),
          }
        : null,
      media: visit
        ? media.map((m) => ({
            id: m.id,
            url: `/resources/media/${m.id}`,
            kind: mediaKindOf(m),
            imageType: m.image_type,
            serviceType: visit.service_type,
            dateLabel: formatBusinessDate(visit.service_date),
          }))
        : [],
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The upload forms post to /resources/media-upload; multipart posts here, from pages loaded
  // before that route existed, are still handled the same way.
  const upload = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  const admin = await requireStaff(request, context, "visits").catch(async (refusal: unknown) => {
    if (upload) await discardRequestBody(request);
    throw refusal;
  });
  if (upload) return handleMediaUpload(request, admin.id);
  return createVisitFromForm(request, admin.id);
}

export default function AdminVisitsAndUploads() {
  const { tab, selectedCustomer, selectedCustomerId, customerMatches, customerQuery, currentVisit, media } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const failure = actionData && "toast" in actionData ? actionData : undefined;
  // A refused form posts back to this URL, keeping the current visit and the customer.
  const createAction = `/admin-dashboard?index&${new URLSearchParams({
    tab: "create",
    ...(currentVisit ? { service: currentVisit.id } : {}),
    ...(selectedCustomerId ? { customer: selectedCustomerId } : {}),
    // Without JavaScript a refused form shows the same matches again, so the pick stays visible.
    ...(customerQuery ? { [CUSTOMER_SEARCH_PARAM]: customerQuery } : {}),
  })}`;

  return (
    <>
      <ActionToast toast={failure?.toast} />
      <VisitTabs tab={tab} visitId={currentVisit?.id} customerId={selectedCustomerId} />
      {currentVisit ? (
        <section
          aria-labelledby="current-service-heading"
          className="mt-6 rounded-xl bg-brand-50 p-4 dark:bg-brand-950"
        >
          <h2 id="current-service-heading" className="font-semibold text-brand-900 dark:text-brand-50">
            Current service
          </h2>
          <p className="text-slate-800 dark:text-slate-100" data-testid="current-service">
            {currentVisit.serviceType} for {currentVisit.customerLabel} on {currentVisit.dateLabel}
          </p>
        </section>
      ) : null}
      {tab === "create" ? (
        <section aria-labelledby="create-heading" className="mt-6 max-w-2xl">
          <h2 id="create-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
            Create Service
          </h2>
          <CreateVisitForm
            formKey={currentVisit?.id ?? "new"}
            action={createAction}
            selectedCustomer={selectedCustomer}
            customerMatches={customerMatches}
            customerQuery={customerQuery}
            visitId={currentVisit?.id ?? null}
            lastResult={failure?.lastResult as SubmissionResult<string[]> | undefined}
          />
        </section>
      ) : (
        <UploadTab visitId={currentVisit?.id ?? null} media={media} />
      )}
    </>
  );
}

const TABS = [
  { id: "create", label: "Create Service" },
  { id: "upload", label: "Upload Images" },
] as const;

function VisitTabs(props: { tab: AdminVisitsTab; visitId?: string; customerId?: string | null }) {
  return (
    <nav aria-label="Services and uploads">
      <ul className="flex flex-wrap gap-2">
        {TABS.map((t) => (
          <li key={t.id}>
            <Link
              to={adminDashboardUrl(t.id, props.visitId, props.customerId)}
              aria-current={props.tab === t.id ? "page" : undefined}
              className={`inline-flex min-h-11 items-center rounded-full px-5 py-2 font-semibold ${
                props.tab === t.id
                  ? "bg-brand-700 text-white dark:bg-brand-300 dark:text-brand-950"
                  : "bg-slate-100 text-slate-800 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
              }`}
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(matches, "Admin Dashboard", "Create services and upload before and after photos and videos.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
