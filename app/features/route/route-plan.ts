import { haversineMiles, orderStops, type Point } from "./route-order";

/** A visit on the day's route, as the planner needs it. */
export type RouteStopInput = {
  id: string;
  /** The yard's coordinates, or its ZIP code's centroid; null: "No location". */
  location: Point | null;
  serviceMinutes: number;
  /** When the visit is booked to start; the earliest is when the route leaves the start. */
  startsAt: Date;
};

export type RouteTiming = { circuityFactor: number; averageSpeedMph: number };

export type PlannedStop = {
  id: string;
  /** 1-based place on the route. */
  position: number;
  /** Estimated arrival; null for a stop without a location. */
  arrival: Date | null;
  /** Road miles from the previous located stop (or the start); null without a location. */
  legMiles: number | null;
};

export type PlannedRoute = {
  stops: PlannedStop[];
  /** Estimated road miles (straight lines times the detour factor). */
  miles: number;
  /** From leaving the start to finishing the last located stop. */
  minutes: number;
  /** Whether an admin's hand-made order was applied. */
  manual: boolean;
};

const MS_PER_MINUTE = 60_000;

/**
 * A stop booked this long after the route leaves is "timed": it is not put among the stops to
 * do first, and nobody arrives before its time (a visit booked for 2 PM is not stop 1 at 8:10).
 */
export const TIMED_AFTER_MINUTES = 30;

/**
 * The day's stops in route order: the admin's order when there is one (stops added since go after
 * it, located first), else nearest neighbour + 2-opt from the start over the stops that may be
 * done at any time, with each timed stop put in where the clock reaches its time (decision 126).
 * Stops without a location always come after the located ones in an optimised order.
 * Arrival = departure + drive time at the average speed + the minutes spent at each stop before,
 * and never before the stop's booked time (the technician waits).
 */
export function planRoute(input: {
  start: Point;
  timing: RouteTiming;
  stops: readonly RouteStopInput[];
  manualOrder?: readonly string[] | null;
  /** When the route leaves the start (the technician's day start); default: the earliest booking. */
  departure?: Date | null;
  /** Where the route ends (the technician's end place): the drive there counts; null: open route. */
  end?: Point | null;
}): PlannedRoute {
  const { start, timing, stops } = input;
  const departure = input.departure?.getTime() ?? Math.min(...stops.map((stop) => stop.startsAt.getTime()));
  const sequence = input.manualOrder
    ? manualSequence(stops, input.manualOrder)
    : optimisedSequence(start, stops, timing, departure);
  let clock = departure;
  let from = start;
  let miles = 0;
  let finished = departure;
  const planned = sequence.map((stop, index): PlannedStop => {
    if (!stop.location) return { id: stop.id, position: index + 1, arrival: null, legMiles: null };
    const legMiles = haversineMiles(from, stop.location) * timing.circuityFactor;
    miles += legMiles;
    clock = Math.max(clock + driveMs(legMiles, timing), stop.startsAt.getTime());
    const arrival = new Date(clock);
    clock += stop.serviceMinutes * MS_PER_MINUTE;
    finished = clock;
    from = stop.location;
    return { id: stop.id, position: index + 1, arrival, legMiles };
  });
  if (input.end && planned.some((stop) => stop.arrival)) {
    const homeMiles = haversineMiles(from, input.end) * timing.circuityFactor;
    miles += homeMiles;
    finished += driveMs(homeMiles, timing);
  }
  return {
    stops: planned,
    miles,
    minutes: stops.length === 0 ? 0 : (finished - departure) / MS_PER_MINUTE,
    manual: Boolean(input.manualOrder),
  };
}

const driveMs = (roadMiles: number, timing: RouteTiming) => (roadMiles / timing.averageSpeedMph) * 60 * MS_PER_MINUTE;

function optimisedSequence(
  start: Point,
  stops: readonly RouteStopInput[],
  timing: RouteTiming,
  departure: number,
): RouteStopInput[] {
  const located = stops.filter((stop) => stop.location);
  const timedFrom = departure + TIMED_AFTER_MINUTES * MS_PER_MINUTE;
  const anyTime = located.filter((stop) => stop.startsAt.getTime() <= timedFrom);
  const timed = located
    .filter((stop) => stop.startsAt.getTime() > timedFrom)
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || (a.id < b.id ? -1 : 1));
  const { order } = orderStops(
    start,
    anyTime.map((stop) => stop.location!),
  );
  // Walk the tour on the clock; a timed stop goes in before the next stop that would make it late.
  const sequence: RouteStopInput[] = [];
  let clock = departure;
  let from = start;
  const leg = (a: Point, b: Point) => driveMs(haversineMiles(a, b) * timing.circuityFactor, timing);
  const finish = (at: number, stop: RouteStopInput) =>
    Math.max(at + leg(from, stop.location!), stop.startsAt.getTime()) + stop.serviceMinutes * MS_PER_MINUTE;
  const visit = (stop: RouteStopInput) => {
    clock = finish(clock, stop);
    from = stop.location!;
    sequence.push(stop);
  };
  let next = 0;
  for (const index of order) {
    const stop = anyTime[index];
    while (next < timed.length) {
      const due = timed[next];
      const arrivingAfterStop = finish(clock, stop) + leg(stop.location!, due.location!);
      if (arrivingAfterStop <= due.startsAt.getTime()) break;
      visit(due);
      next++;
    }
    visit(stop);
  }
  while (next < timed.length) visit(timed[next++]);
  return [...sequence, ...stops.filter((stop) => !stop.location)];
}

function manualSequence(stops: readonly RouteStopInput[], manualOrder: readonly string[]): RouteStopInput[] {
  const byId = new Map(stops.map((stop) => [stop.id, stop]));
  const kept = manualOrder.flatMap((id) => {
    const stop = byId.get(id);
    byId.delete(id);
    return stop ? [stop] : [];
  });
  const added = [...byId.values()];
  return [...kept, ...added.filter((stop) => stop.location), ...added.filter((stop) => !stop.location)];
}

/** The order after moving one stop a place up (-1) or down (+1); unchanged at either end. */
export function moveStop(order: readonly string[], id: string, direction: -1 | 1): string[] | null {
  const index = order.indexOf(id);
  const target = index + direction;
  if (index < 0 || target < 0 || target >= order.length) return null;
  const next = [...order];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}
