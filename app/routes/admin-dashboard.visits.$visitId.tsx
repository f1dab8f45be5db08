import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ActionToast } from "~/components/action-toast";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { AdminVisitCustomer } from "~/features/visits/admin-visit-customer";
import { AdminVisitHeading } from "~/features/visits/admin-visit-heading";
import { AdminVisitEmails, AdminVisitHistory } from "~/features/visits/admin-visit-log";
import { AdminVisitMedia } from "~/features/visits/admin-visit-media";
import { AdminVisitNotes } from "~/features/visits/admin-visit-notes";
import { AdminVisitStatus } from "~/features/visits/admin-visit-status";
import { OnMyWayPanel } from "~/features/notices/on-my-way-panel";
import { OfflineVisitMarker } from "~/features/offline/offline-status";
import { onMyWayView } from "~/features/notices/on-my-way-view.server";
import { roleAllows } from "~/features/staff/capabilities";
import { requireVisitInReach } from "~/features/staff/staff-access.server";
import { VisitAssignmentForm } from "~/features/staff/visit-assignment-form";
import { GateCodeReveal } from "~/features/staff/gate-code-reveal";
import { visitPageFor } from "~/features/staff/visit-page-reach.server";
import { handleAdminVisitAction, loadAdminVisit, OFFICE_VISIT_INTENTS } from "~/features/visits/visit-page.server";
import { listAssignableStaff } from "~/models/staff.server";
import { YardLocationForm } from "~/features/yards/yard-location-form";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const staff = await requireVisitInReach(request, context, params.visitId ?? "");
  // Office and owner manage the visit's calendar and who works it; a technician records it.
  const mayManage = roleAllows(staff.staffRole, "visits");
  const [page, onMyWay, assignees] = await Promise.all([
    loadAdminVisit(params.visitId ?? "").then((loaded) => visitPageFor(staff, loaded)),
    onMyWayView(params.visitId ?? ""),
    mayManage ? listAssignableStaff() : null,
  ]);
  const visit = mayManage
    ? page.visit
    : { ...page.visit, allowed: page.visit.allowed.filter((action) => !OFFICE_VISIT_INTENTS.has(action)) };
  const assignment = assignees ? { assignedTo: page.visit.assignedTo, options: assignees } : null;
  // When the page was read: a change queued offline on it conflicts with any made after (decision 127).
  const seenAt = new Date().toISOString();
  return json({ ...page, visit, onMyWay, assignment, seenAt }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const staff = await requireVisitInReach(request, context, params.visitId ?? "");
  return handleAdminVisitAction(request, params.visitId ?? "", staff.id, {
    mayManage: roleAllows(staff.staffRole, "visits"),
    needToKnow: !roleAllows(staff.staffRole, "customers"),
  });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

// One visit for the admin; each section is a component of features/visits.
export default function AdminVisit() {
  const { visit, customer, yard, location, media, history, emails, onMyWay, assignment, seenAt } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";

  return (
    <article aria-labelledby="visit-heading">
      <ActionToast toast={actionData?.toast} />
      <OfflineVisitMarker visitId={visit.id} seenAt={seenAt} label={`${visit.serviceType}, ${visit.dateLabel}`} />
      <AdminVisitHeading visit={visit} />
      <AdminVisitStatus visit={visit} actionData={actionData} busy={busy} />
      {assignment ? (
        <VisitAssignmentForm
          assignedTo={assignment.assignedTo}
          options={assignment.options}
          busy={busy}
          error={actionData?.intent === "assign" ? actionData.toast.description : undefined}
        />
      ) : null}
      <OnMyWayPanel visitId={visit.id} view={onMyWay} />
      <AdminVisitCustomer
        customer={customer}
        yard={yard}
        gateCode={yard?.gateCodeHidden ? <GateCodeReveal revealed={actionData?.gateCode ?? null} busy={busy} /> : null}
      />
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
