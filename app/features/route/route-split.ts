import { haversineMiles, type Point } from "./route-order";
import type { RouteTiming } from "./route-plan";

/**
 * Splitting a day's visits into one route per working technician (docs/decisions/126). Pure code:
 * the caller loads the day and stores the result. In order of precedence a visit goes to
 *  1. the staff member the owner put it with by hand (never overridden),
 *  2. its customer's technician (stable assignment: the same technician week to week),
 *  3. otherwise by area: on a day where nobody has stops yet, the stops and the technicians are
 *     cut together into areas of equal minutes (recursive bisection along the wider side); on a
 *     day that already has routes, each new customer joins the nearest route that has room.
 * A stop's minutes are its visit time plus a driving estimate (the miles to the nearest other
 * stop of the day, at the route timing's detour factor and speed).
 */

export type RouteWorker = {
  id: string;
  start: Point;
  /** Minutes of the working day (end − start): each worker's share of the day is in proportion. */
  workingMinutes: number;
};

export type SplitVisit = {
  id: string;
  customerId: string;
  location: Point | null;
  serviceMinutes: number;
  /** The staff member the owner assigned this visit to by hand, or null. */
  manualTo: string | null;
  /** The customer's technician (stable assignment), or null for a new customer. */
  stableTo: string | null;
};

export type SplitResult = {
  /** Visit id → the staff member who works it (every visit given, unless nobody works the day). */
  assignments: Map<string, string>;
  /** Customers placed by area this time: customer id → technician, to keep from now on. */
  newStable: Map<string, string>;
  /** Estimated minutes (visit time + driving estimate) per worker, as the split saw them. */
  estimatedMinutes: Map<string, number>;
};

/** Over its share by more than this, a route takes no more new customers while another has room. */
const ROOM = 1.1;

export function splitDay(input: {
  workers: readonly RouteWorker[];
  visits: readonly SplitVisit[];
  timing: RouteTiming;
}): SplitResult {
  const { workers, visits, timing } = input;
  const assignments = new Map<string, string>();
  const newStable = new Map<string, string>();
  const load = new Map(workers.map((worker) => [worker.id, 0]));
  if (workers.length === 0) {
    for (const visit of visits) if (visit.manualTo) assignments.set(visit.id, visit.manualTo);
    return { assignments, newStable, estimatedMinutes: load };
  }
  const working = new Set(workers.map((worker) => worker.id));
  const cost = stopMinutes(visits, timing);
  const centres = new Map(workers.map((worker) => [worker.id, { lat: 0, lon: 0, n: 0, start: worker.start }]));
  const place = (visit: SplitVisit, to: string) => {
    assignments.set(visit.id, to);
    if (!working.has(to)) return;
    load.set(to, load.get(to)! + cost.get(visit.id)!);
    if (visit.location) {
      const centre = centres.get(to)!;
      centre.lat += visit.location.latitude;
      centre.lon += visit.location.longitude;
      centre.n++;
    }
  };
  // A customer with two visits on one day keeps both on one route: new ones are placed by customer.
  const newByCustomer = new Map<string, SplitVisit[]>();
  for (const visit of visits) {
    if (visit.manualTo) place(visit, visit.manualTo);
    else if (visit.stableTo && working.has(visit.stableTo)) place(visit, visit.stableTo);
    else newByCustomer.set(visit.customerId, [...(newByCustomer.get(visit.customerId) ?? []), visit]);
  }
  const total = [...cost.values()].reduce((sum, minutes) => sum + minutes, 0);
  const capacity = workers.reduce((sum, worker) => sum + Math.max(1, worker.workingMinutes), 0);
  const target = new Map(workers.map((w) => [w.id, (total * Math.max(1, w.workingMinutes)) / capacity]));
  const groups = [...newByCustomer.entries()].map(([customerId, group]) => ({
    customerId,
    visits: group,
    location: group.find((visit) => visit.location)?.location ?? null,
    minutes: group.reduce((sum, visit) => sum + cost.get(visit.id)!, 0),
  }));
  const located = groups.filter((group) => group.location);
  const unlocated = groups.filter((group) => !group.location);
  const give = (group: (typeof groups)[number], to: string) => {
    for (const visit of group.visits) place(visit, to);
    newStable.set(group.customerId, to);
  };
  if ([...load.values()].every((minutes) => minutes === 0)) {
    bisect([...workers], located, (group, to) => give(group, to));
  } else {
    for (const group of located.sort((a, b) => (a.customerId < b.customerId ? -1 : 1))) {
      give(group, nearestWithRoom(group.location!, group.minutes, workers, centres, load, target));
    }
  }
  // Without a place, the route with the most room takes them.
  for (const group of unlocated.sort((a, b) => (a.customerId < b.customerId ? -1 : 1))) {
    give(group, leastLoaded(workers, load, target, group.minutes));
  }
  return { assignments, newStable, estimatedMinutes: load };
}

function leastLoaded(
  workers: readonly RouteWorker[],
  load: Map<string, number>,
  target: Map<string, number>,
  minutes: number,
) {
  let best = workers[0].id;
  let bestRatio = Infinity;
  for (const worker of workers) {
    const ratio = (load.get(worker.id)! + minutes) / target.get(worker.id)!;
    if (ratio < bestRatio) [best, bestRatio] = [worker.id, ratio];
  }
  return best;
}

function nearestWithRoom(
  at: Point,
  minutes: number,
  workers: readonly RouteWorker[],
  centres: Map<string, { lat: number; lon: number; n: number; start: Point }>,
  load: Map<string, number>,
  target: Map<string, number>,
) {
  const ranked = workers
    .map((worker) => {
      const centre = centres.get(worker.id)!;
      const point = centre.n ? { latitude: centre.lat / centre.n, longitude: centre.lon / centre.n } : centre.start;
      return { id: worker.id, miles: haversineMiles(at, point) };
    })
    .sort((a, b) => a.miles - b.miles || (a.id < b.id ? -1 : 1));
  const roomy = ranked.find((worker) => load.get(worker.id)! + minutes <= target.get(worker.id)! * ROOM);
  return roomy ? roomy.id : leastLoaded(workers, load, target, minutes);
}

type Placeable = { location: Point | null; minutes: number; customerId: string };

/**
 * Cuts the stops and the workers together: along the wider side of the stops' box, the workers
 * sorted by their start, the first half of them take the stops up to their share of the minutes.
 */
function bisect<T extends Placeable>(workers: RouteWorker[], items: T[], give: (item: T, to: string) => void) {
  if (items.length === 0) return;
  if (workers.length === 1) {
    for (const item of items) give(item, workers[0].id);
    return;
  }
  let [minLat, maxLat, minLon, maxLon] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const { location } of items) {
    minLat = Math.min(minLat, location!.latitude);
    maxLat = Math.max(maxLat, location!.latitude);
    minLon = Math.min(minLon, location!.longitude);
    maxLon = Math.max(maxLon, location!.longitude);
  }
  const east = (maxLon - minLon) * Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180) > maxLat - minLat;
  const along = (point: Point) => (east ? point.longitude : point.latitude);
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  workers.sort((a, b) => along(a.start) - along(b.start) || byId(a.id, b.id));
  items.sort((a, b) => along(a.location!) - along(b.location!) || byId(a.customerId, b.customerId));
  const half = Math.floor(workers.length / 2);
  const share = (list: RouteWorker[]) => list.reduce((sum, worker) => sum + Math.max(1, worker.workingMinutes), 0);
  const fraction = share(workers.slice(0, half)) / share(workers);
  const wanted = items.reduce((sum, item) => sum + item.minutes, 0) * fraction;
  let cut = 0;
  let sum = 0;
  while (cut < items.length && sum + items[cut].minutes / 2 <= wanted) sum += items[cut++].minutes;
  bisect(workers.slice(0, half), items.slice(0, cut), give);
  bisect(workers.slice(half), items.slice(cut), give);
}

/**
 * Each visit's minutes for balancing: its visit time plus the drive from its nearest neighbour
 * among the day's located visits (a tour's legs are mostly such hops). Nearest neighbours by a
 * sweep along the latitude: O(n log n) on a day's spread-out stops.
 */
export function stopMinutes(visits: readonly SplitVisit[], timing: RouteTiming): Map<string, number> {
  const minutes = new Map(visits.map((visit) => [visit.id, visit.serviceMinutes]));
  const located = visits.filter((visit) => visit.location).map((visit) => ({ id: visit.id, at: visit.location! }));
  located.sort((a, b) => a.at.latitude - b.at.latitude);
  const milesPerLatDegree = 69.05;
  for (let i = 0; i < located.length; i++) {
    let best = Infinity;
    for (const step of [-1, 1]) {
      for (let j = i + step; j >= 0 && j < located.length; j += step) {
        if (Math.abs(located[j].at.latitude - located[i].at.latitude) * milesPerLatDegree >= best) break;
        best = Math.min(best, haversineMiles(located[i].at, located[j].at));
      }
    }
    if (best === Infinity) best = 0;
    const drive = ((best * timing.circuityFactor) / timing.averageSpeedMph) * 60;
    minutes.set(located[i].id, minutes.get(located[i].id)! + drive);
  }
  return minutes;
}
