import { Link } from "@remix-run/react";
import { type AdminVisitData } from "./admin-visit-view";
import { linkClass, tapLinkClass } from "~/components/ui-classes";
import { visitPath } from "./visit-paths";
import { VisitStatusBadge } from "~/components/status-badge";
import { VISIT_ACTIONS } from "./visit-transitions";

/** The top of the admin's visit page: the way back, the visit, its status and its return visits. */
export function AdminVisitHeading({ visit }: { visit: AdminVisitData["visit"] }) {
  return (
    <>
      <Link to={visit.back.to} className={tapLinkClass}>
        <span aria-hidden="true">←&nbsp;</span>
        {visit.back.label}
      </Link>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h2 id="visit-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
          {visit.serviceType}, <time dateTime={visit.date}>{visit.dateLabel}</time>
        </h2>
        <VisitStatusBadge status={visit.status} />
      </div>
      {visit.completedAt && visit.completedLabel ? (
        <p className="mt-2">
          <time dateTime={visit.completedAt}>{visit.completedLabel}</time>
        </p>
      ) : null}
      {visit.skipReason ? <p className="mt-2">{visit.skipReason}</p> : null}
      <AdminVisitPlan visit={visit} />
      {visit.missedReason ? (
        <p className="mt-2">
          Missed: {visit.missedReason}
          {visit.missedNote ? ` (${visit.missedNote})` : ""}
        </p>
      ) : null}
      {visit.returnVisitOf ? (
        <p className="mt-2">
          Return visit for{" "}
          <Link to={visitPath(visit.returnVisitOf)} className={linkClass}>
            the missed visit
          </Link>
        </p>
      ) : null}
      {visit.returnVisit ? (
        <p className="mt-2">
          Return visit scheduled:{" "}
          <Link to={visitPath(visit.returnVisit.id)} className={linkClass}>
            {visit.returnVisit.dateLabel}
          </Link>
        </p>
      ) : null}
    </>
  );
}

/**
 * The customer plan a visit was made from (decision 090), linked to the plan on the customer's
 * page; once an admin moved, skipped or cancelled it by hand, it says it no longer follows it.
 */
function AdminVisitPlan({ visit }: { visit: AdminVisitData["visit"] }) {
  const { plan } = visit;
  if (!plan) return null;
  const planLink = plan.href ? (
    <Link to={plan.href} className={linkClass}>
      {plan.name}
    </Link>
  ) : (
    plan.name
  );
  if (!plan.followsPlan) {
    return <p className="mt-2">Made from plan {planLink}, then changed by hand: it no longer follows the plan.</p>;
  }
  const handChanges = visit.allowed.filter((action) => VISIT_ACTIONS[action].leavesPlan);
  return (
    <p className="mt-2">
      From plan: {planLink}
      {handChanges.length > 0 ? ". Rescheduling, skipping or cancelling it here takes it off the plan." : null}
    </p>
  );
}
