import type { TodayPage } from "./today-route.server";

/** "12 stops · 34.5 mi · 3 h 20 min" and, for a hand-made order, "Optimise again". */
export function RouteSummary({ route }: { route: NonNullable<TodayPage["route"]> }) {
  const hours = Math.floor(route.minutes / 60);
  const minutes = Math.round(route.minutes - hours * 60);
  const duration = hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
  return (
    <div className="mt-3 rounded-xl bg-slate-100 p-4 dark:bg-slate-800">
      <p className="font-semibold">
        {`${route.stops} ${route.stops === 1 ? "stop" : "stops"} · ${route.miles.toFixed(1)} mi · ${duration}`}
      </p>
      <p className="mt-1 text-sm">
        {`From ${route.startName}. Estimates: straight-line miles times the detour factor, at the average speed.`}
      </p>
      {route.manual ? (
        <form method="post" action="/admin-dashboard/visits/today" className="mt-3 flex flex-wrap items-center gap-3">
          <p className="font-medium">Order set by hand.</p>
          <input type="hidden" name="intent" value="optimise" />
          <button type="submit" className="admin-btn admin-btn-primary">
            Optimise again
          </button>
        </form>
      ) : null}
    </div>
  );
}
