import { Link } from "@remix-run/react";
import { type AdminVisitData } from "./admin-visit-view";
import { linkClass, tapLinkClass } from "~/components/ui-classes";
import { visitPath } from "./visit-paths";
import { VisitStatusBadge } from "~/components/status-badge";

/** The top of the admin's visit page: the way back, the visit, its status and its return visits. */
export function AdminVisitHeading({ visit }: { visit: AdminVisitData["visit"] }) {
  return (
    <>
      <Link to="/admin-dashboard/visits" className={tapLinkClass}>
        <span aria-hidden="true">←&nbsp;</span>All visits
      </Link>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h2 id="visit-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
          {visit.serviceType}, <time dateTime={visit.date}>{visit.dateLabel}</time>
        </h2>
        <VisitStatusBadge status={visit.status} />
      </div>
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
