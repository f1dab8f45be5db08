import type { ReactNode } from "react";
import type { TodayStop } from "./today-route.server";
import { VisitStatusBadge } from "~/components/status-badge";
import { PlanMarker } from "~/features/plans/plan-marker";

/**
 * One visit on Today, as a card for a phone: its place on the route and estimated arrival when the
 * day is a route, then the yard's facts (a gate code is said to be on file, never shown).
 * `actions` is the slot for a stop's own buttons (e.g. "On my way"), above the order buttons.
 * Its links are plain anchors, not Remix's <Link>: Today ships no React (a document load of it
 * has no client router to use), and its 200 <Link>s were among the largest parts of the render
 * in a CPU profile (the router's hooks; decision 093).
 */
export function RouteStopCard({ stop, actions }: { stop: TodayStop; actions?: ReactNode }) {
  return (
    <li id={`stop-${stop.id}`} className="list-card">
      <div className="row-head items-center">
        <a href={`/admin-dashboard/visits/${stop.id}`} className="tap-link text-lg font-bold">
          {stop.position !== null ? (
            <span className="stop-no">
              <span className="sr-only">Stop </span>
              {stop.position}
            </span>
          ) : null}
          <time dateTime={stop.date}>{stop.time}</time>
          {`\u00a0· ${stop.customer}`}
        </a>
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
      <p className="mt-1 font-medium">
        {stop.address ? (
          // Maps' universal link: the phone's map app gives the directions (no map service here).
          <a
            href={`https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(stop.address)}`}
            className="tap-link"
          >
            {stop.address}
            <span className="sr-only"> (directions)</span>
          </a>
        ) : (
          "No address on file"
        )}
      </p>
      {stop.phone ? (
        <p className="mt-1">
          <a href={stop.phone.href} className="tap-link">
            <span className="sr-only">{`Call ${stop.customer}: `}</span>
            {stop.phone.label}
          </a>
        </p>
      ) : null}
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
      <div className="mt-3 flex flex-wrap gap-3">
        {actions}
        <a href={`/admin-dashboard/visits/${stop.id}`} className="admin-btn admin-btn-primary">
          Open visit<span className="sr-only">{` of ${stop.customer}`}</span>
        </a>
      </div>
      {stop.position !== null ? <MoveButtons stop={stop} /> : null}
    </li>
  );
}

/**
 * One plain form (Today ships no React), a button for each way: each press stores the day's
 * order as shown, moved. Lean markup: a day has up to 100 of these.
 */
function MoveButtons({ stop }: { stop: TodayStop }) {
  if (!stop.canMoveUp && !stop.canMoveDown) return null;
  const hint = <span className="sr-only">{` stop ${stop.position}`}</span>;
  return (
    <form method="post" action="/admin-dashboard/visits/today" className="mt-3 flex flex-wrap gap-3">
      <input type="hidden" name="visitId" value={stop.id} />
      {stop.canMoveUp ? (
        <button type="submit" name="intent" value="move-up" className="admin-btn admin-btn-secondary">
          Move up{hint}
        </button>
      ) : null}
      {stop.canMoveDown ? (
        <button type="submit" name="intent" value="move-down" className="admin-btn admin-btn-secondary">
          Move down{hint}
        </button>
      ) : null}
    </form>
  );
}
