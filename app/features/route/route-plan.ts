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
 * The day's stops in route order: the admin's order when there is one (stops added since go after
 * it, located first), else nearest neighbour + 2-opt from the start. Stops without a location
 * always come after the located ones in an optimised order. Arrival = departure + drive time at
 * the average speed + the minutes spent at each stop before.
 */
export function planRoute(input: {
  start: Point;
  timing: RouteTiming;
  stops: readonly RouteStopInput[];
  manualOrder?: readonly string[] | null;
}): PlannedRoute {
  const { start, timing, stops } = input;
  const sequence = input.manualOrder ? manualSequence(stops, input.manualOrder) : optimisedSequence(start, stops);
  const departure = Math.min(...stops.map((stop) => stop.startsAt.getTime()));
  let clock = departure;
  let from = start;
  let miles = 0;
  let finished = departure;
  const planned = sequence.map((stop, index): PlannedStop => {
    if (!stop.location) return { id: stop.id, position: index + 1, arrival: null, legMiles: null };
    const legMiles = haversineMiles(from, stop.location) * timing.circuityFactor;
    miles += legMiles;
    clock += (legMiles / timing.averageSpeedMph) * 60 * MS_PER_MINUTE;
    const arrival = new Date(clock);
    clock += stop.serviceMinutes * MS_PER_MINUTE;
    finished = clock;
    from = stop.location;
    return { id: stop.id, position: index + 1, arrival, legMiles };
  });
  return {
    stops: planned,
    miles,
    minutes: stops.length === 0 ? 0 : (finished - departure) / MS_PER_MINUTE,
    manual: Boolean(input.manualOrder),
  };
}

function optimisedSequence(start: Point, stops: readonly RouteStopInput[]): RouteStopInput[] {
  const located = stops.filter((stop) => stop.location);
  const { order } = orderStops(
    start,
    located.map((stop) => stop.location!),
  );
  return [...order.map((index) => located[index]), ...stops.filter((stop) => !stop.location)];
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
