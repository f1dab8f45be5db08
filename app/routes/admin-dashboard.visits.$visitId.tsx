import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ActionToast } from "~/components/action-toast";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireAdmin } from "~/features/accounts/auth.server";
import { AdminVisitCustomer } from "~/features/visits/admin-visit-customer";
import { AdminVisitHeading } from "~/features/visits/admin-visit-heading";
import { AdminVisitEmails, AdminVisitHistory } from "~/features/visits/admin-visit-log";
import { AdminVisitMedia } from "~/features/visits/admin-visit-media";
import { AdminVisitNotes } from "~/features/visits/admin-visit-notes";
import { AdminVisitStatus } from "~/features/visits/admin-visit-status";
import { OnMyWayPanel } from "~/features/notices/on-my-way-panel";
import { onMyWayView } from "~/features/notices/on-my-way-view.server";
import { handleAdminVisitAction, loadAdminVisit } from "~/features/visits/visit-page.server";
import { YardLocationForm } from "~/features/yards/yard-location-form";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const [page, onMyWay] = await Promise.all([loadAdminVisit(params.visitId ?? ""), onMyWayView(params.visitId ?? "")]);
  return json({ ...page, onMyWay }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  return handleAdminVisitAction(request, params.visitId ?? "", admin.id);
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

// One visit for the admin; each section is a component of features/visits.
export default function AdminVisit() {
  const { visit, customer, yard, location, media, history, emails, onMyWay } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";

  return (
    <article aria-labelledby="visit-heading">
      <ActionToast toast={actionData?.toast} />
      <AdminVisitHeading visit={visit} />
      <AdminVisitStatus visit={visit} actionData={actionData} busy={busy} />
      <OnMyWayPanel visitId={visit.id} view={onMyWay} />
      <AdminVisitCustomer customer={customer} yard={yard} />
      <YardLocationForm
        location={location}
        result={actionData?.intent === "yard-location" ? actionData.result : null}
        busy={busy}
      />
      <AdminVisitMedia visitId={visit.id} media={media} busy={busy} />
      <AdminVisitNotes visit={visit} actionData={actionData} busy={busy} />
      <AdminVisitEmails emails={emails} />
      <AdminVisitHistory history={history} />
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.visit.serviceType}, ${data.visit.dateLabel} | Visits` : "Visit | Admin Dashboard" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
