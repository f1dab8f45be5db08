import type { ReactNode } from "react";
import { Link } from "@remix-run/react";
import type { TodayStop } from "./today-route.server";
import { VisitStatusBadge } from "~/components/status-badge";
import { PlanMarker } from "~/features/plans/plan-marker";

/**
 * One visit on Today, as a card for a phone: its place on the route and estimated arrival when the
 * day is a route, then the yard's facts (a gate code is said to be on file, never shown).
 * `actions` is the slot for a stop's own buttons (e.g. "On my way"), above the order buttons.
 */
export function RouteStopCard({ stop, actions }: { stop: TodayStop; actions?: ReactNode }) {
  return (
    <li id={`stop-${stop.id}`} className="list-card scroll-mt-4">
      <div className="row-head items-center">
        <Link to={`/admin-dashboard/visits/${stop.id}`} className="tap-link text-lg font-bold">
          {stop.position !== null ? (
            <span className="mr-2 inline-flex size-8 items-center justify-center rounded-full bg-brand-700 text-base text-white no-underline dark:bg-brand-300 dark:text-brand-950">
              <span className="sr-only">Stop </span>
              {stop.position}
            </span>
          ) : null}
          <time dateTime={stop.date}>{stop.time}</time>
          {`\u00a0· ${stop.customer}`}
        </Link>
        <VisitStatusBadge status={stop.status} />
      </div>
      {stop.arrivalAt ? (
        <p className="mt-1 font-semibold">
          {"Estimated arrival "}
          <time dateTime={stop.arrivalAt}>{stop.arrival}</time>
          {stop.approximate ? <span className="font-normal"> (placed by ZIP code)</span> : null}
        </p>
      ) : null}
      <p className="mt-1">
        {stop.serviceType}
        {stop.fromPlan ? <PlanMarker /> : null}
      </p>
      {stop.skipReason ? <p className="mt-1">{stop.skipReason}</p> : null}
      <p className="mt-1 font-medium">{stop.address ?? "No address on file"}</p>
      <ul className="chips">
        {stop.noLocation ? <li className="chip-warn">No location</li> : null}
        <li className="chip">
          {(stop.dogs === null ? "Dogs: not given" : `Dogs: ${stop.dogs}`) +
            (stop.dogNames ? ` (${stop.dogNames})` : "")}
        </li>
        {stop.looseDog ? <li className="chip-warn">A dog may be loose in the yard</li> : null}
        <li className="chip">{stop.hasGateCode ? "Gate code on file" : "No gate code"}</li>
      </ul>
      {stop.hazards ? <p className="mt-2">{`Hazards: ${stop.hazards}`}</p> : null}
      {actions ? <div className="mt-3 flex flex-wrap gap-3">{actions}</div> : null}
      {stop.position !== null ? <MoveButtons stop={stop} /> : null}
    </li>
  );
}

/** Plain forms (Today ships no React): each press stores the day's order as shown, moved. */
function MoveButtons({ stop }: { stop: TodayStop }) {
  const button = (intent: "move-up" | "move-down", label: string, enabled: boolean) =>
    enabled ? (
      <form method="post" action="/admin-dashboard/visits/today">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="visitId" value={stop.id} />
        <button type="submit" className="admin-btn admin-btn-secondary">
          {label}
          <span className="sr-only">{`: stop ${stop.position}, ${stop.customer}`}</span>
        </button>
      </form>
    ) : null;
  return (
    <div className="mt-3 flex flex-wrap gap-3">
      {button("move-up", "Move up", stop.canMoveUp)}
      {button("move-down", "Move down", stop.canMoveDown)}
    </div>
  );
}
