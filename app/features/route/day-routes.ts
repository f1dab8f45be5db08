import type { Point } from "./route-order";
import { planRoute, type PlannedRoute, type RouteStopInput, type RouteTiming } from "./route-plan";
import { splitDay, type RouteWorker, type SplitResult, type SplitVisit } from "./route-split";

export type DayWorker = RouteWorker & {
  /** When their day starts: the route leaves the start then. */
  departure: Date;
  end: Point | null;
};

export type DayVisit = SplitVisit & RouteStopInput & { status: string };

/** Visits with these statuses are stops; skipped and cancelled ones never count toward a route. */
export const ON_ROUTE_STATUSES: ReadonlySet<string> = new Set(["scheduled", "completed", "missed"]);

export type WorkerRoute = { workerId: string; visitIds: string[]; plan: PlannedRoute };

/**
 * A day's visits split among the working technicians (route-split.ts), then each route ordered
 * as one route is (route-plan.ts), from the technician's own start at their day's start. Visits
 * the split gives to someone not working the day (a manual assignment) are planned from that
 * person's start too when they are among `workers`, else left to the caller.
 */
export function planDayRoutes(input: {
  workers: readonly DayWorker[];
  visits: readonly DayVisit[];
  timing: RouteTiming;
  manualOrders?: ReadonlyMap<string, readonly string[]>;
}): { split: SplitResult; routes: WorkerRoute[] } {
  const visits = input.visits.filter((visit) => ON_ROUTE_STATUSES.has(visit.status));
  const split = splitDay({ workers: input.workers, visits, timing: input.timing });
  const byWorker = new Map<string, DayVisit[]>(input.workers.map((worker) => [worker.id, []]));
  for (const visit of visits) byWorker.get(split.assignments.get(visit.id) ?? "")?.push(visit);
  const routes = input.workers.map((worker) => {
    const stops = byWorker.get(worker.id)!;
    const plan = planRoute({
      start: worker.start,
      end: worker.end,
      timing: input.timing,
      stops,
      departure: worker.departure,
      manualOrder: input.manualOrders?.get(worker.id) ?? null,
    });
    return { workerId: worker.id, visitIds: stops.map((stop) => stop.id), plan };
  });
  return { split, routes };
}

/** Minutes of work on a planned route: time at the stops plus driving (waiting not counted). */
export function workMinutes(plan: PlannedRoute, stops: readonly RouteStopInput[], timing: RouteTiming): number {
  const service = stops.reduce((sum, stop) => sum + stop.serviceMinutes, 0);
  return service + (plan.miles / timing.averageSpeedMph) * 60;
}
