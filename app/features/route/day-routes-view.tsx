import type { loadRoutesPage } from "./routes-page.server";

type Page = Awaited<ReturnType<typeof loadRoutesPage>>;
type Stop = Page["routes"][number]["stops"][number];

const duration = (minutes: number) => {
  const hours = Math.floor(minutes / 60);
  const rest = Math.round(minutes - hours * 60);
  return hours > 0 ? `${hours} h ${rest} min` : `${rest} min`;
};

/** The routes page: the day's routes side by side (stacked on a phone), each stop movable. */
export function DayRoutes({ page }: { page: Page }) {
  const action = `/admin-dashboard/routes?date=${page.day}`;
  return (
    <section aria-labelledby="routes-heading">
      <h2 id="routes-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Routes
      </h2>
      <p className="text-slate-700 dark:text-slate-200">{page.dayLabel}</p>
      <div className="mt-4 flex flex-wrap items-end gap-4">
        <form method="get" action="/admin-dashboard/routes" className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col">
            <span className="font-medium">Day</span>
            <input type="date" name="date" defaultValue={page.day} className="admin-field" />
          </label>
          <button type="submit" className="admin-btn admin-btn-secondary">
            Show
          </button>
        </form>
        <form method="post" action={action}>
          <input type="hidden" name="intent" value="split" />
          <button type="submit" className="admin-btn admin-btn-primary">
            Split the day
          </button>
        </form>
      </div>
      {page.timingSet ? null : <p className="mt-3">Set the route timing in Site settings › Route to plan routes.</p>}
      {page.truncated ? <p className="mt-3">This day has more visits than one page shows; the first 5,000.</p> : null}
      {page.workers.length === 0 ? (
        <p className="mt-3">Nobody works a route yet: turn on “Works a route” on a staff member’s page (Staff).</p>
      ) : (
        <ReassignForm page={page} action={action} />
      )}
      <div className="mt-6 grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {page.routes.map((route) => (
          <section
            key={route.id}
            aria-labelledby={`route-${route.id}`}
            className="rounded-xl border border-slate-300 p-4 dark:border-slate-600"
          >
            <h3 id={`route-${route.id}`} className="text-lg font-semibold">
              {route.label}
            </h3>
            <p className="font-medium">
              {`${route.stops.length} ${route.stops.length === 1 ? "stop" : "stops"} · ${route.miles.toFixed(1)} mi · ${duration(route.minutes)}`}
            </p>
            <p className="text-sm">{`From ${route.startName}, ${route.hours}${route.working ? "" : " (not a working day)"}`}</p>
            <StopList stops={route.stops} page={page} action={action} from={route.id} />
          </section>
        ))}
      </div>
      {page.unassigned.length ? (
        <section aria-labelledby="unassigned-heading" className="mt-6">
          <h3 id="unassigned-heading" className="text-lg font-semibold">
            Not on a route yet
          </h3>
          <StopList stops={page.unassigned} page={page} action={action} from={null} />
        </section>
      ) : null}
      {page.offRoute ? (
        <p className="mt-4">{`${page.offRoute} skipped or cancelled visits are not on any route.`}</p>
      ) : null}
    </section>
  );
}

function StopList({ stops, page, action, from }: { stops: Stop[]; page: Page; action: string; from: string | null }) {
  if (stops.length === 0) return <p className="mt-2">No stops.</p>;
  return (
    <ol className="mt-3 space-y-3">
      {stops.map((stop) => (
        <li key={stop.id} id={`stop-${stop.id}`} className="rounded-lg bg-slate-100 p-3 dark:bg-slate-800">
          <p className="font-semibold">
            {stop.position ? `${stop.position}. ` : ""}
            <a href={`/admin-dashboard/visits/${stop.id}`} className="underline">
              {stop.customer}
            </a>
          </p>
          <p className="text-sm">
            {stop.arrival ? `Estimated arrival ${stop.arrival} · booked ${stop.time}` : `Booked ${stop.time}`}
            {stop.byHand ? " · moved by hand" : ""}
          </p>
          {stop.address ? <p className="text-sm">{stop.address}</p> : null}
          <form method="post" action={action} className="mt-2 flex flex-wrap items-end gap-2">
            <input type="hidden" name="visitId" value={stop.id} />
            <label className="flex flex-col text-sm">
              <span>Move to</span>
              <select name="to" className="admin-field" defaultValue="">
                <option value="" disabled>
                  Choose…
                </option>
                {page.workers
                  .filter((w) => w.id !== from)
                  .map((w) => (
                    <option key={w.id} value={w.id}>
                      {w.label}
                    </option>
                  ))}
              </select>
            </label>
            <button type="submit" name="intent" value="move-stop" className="admin-btn admin-btn-secondary">
              Move this visit
            </button>
            <button type="submit" name="intent" value="move-customer" className="admin-btn admin-btn-secondary">
              Move the customer
            </button>
          </form>
        </li>
      ))}
    </ol>
  );
}

function ReassignForm({ page, action }: { page: Page; action: string }) {
  return (
    <form method="post" action={action} className="mt-4 flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="reassign" />
      <label className="flex flex-col">
        <span className="font-medium">Customers of</span>
        <select name="from" className="admin-field" defaultValue="">
          <option value="" disabled>
            Choose…
          </option>
          {page.workers.map((w) => (
            <option key={w.id} value={w.id}>
              {w.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col">
        <span className="font-medium">Go to</span>
        <select name="to" className="admin-field" defaultValue="area">
          <option value="area">Split by area</option>
          {page.workers.map((w) => (
            <option key={w.id} value={w.id}>
              {w.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="admin-btn admin-btn-primary">
        Reassign
      </button>
    </form>
  );
}
