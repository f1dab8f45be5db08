/**
 * Ordering a day's stops without a map service (docs/decisions/093): straight-line (great-circle)
 * distances, a nearest-neighbour tour from the route start, then 2-opt until no reversal of a
 * stretch shortens it. The route is open: it ends at its last stop, it does not drive back.
 * The detour factor (circuity) scales every leg alike, so it changes the miles, never the order.
 */

export type Point = { latitude: number; longitude: number };

const EARTH_RADIUS_MILES = 3958.8;
const RADIANS = Math.PI / 180;

/** Great-circle distance in miles (haversine). */
export function haversineMiles(a: Point, b: Point): number {
  const dLat = (b.latitude - a.latitude) * RADIANS;
  const dLon = (b.longitude - a.longitude) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * RADIANS) * Math.cos(b.latitude * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Node 0 is the start, node i + 1 is stops[i]; a flat (n+1)² matrix of straight-line miles. */
function distanceMatrix(start: Point, stops: readonly Point[]): { size: number; miles: Float64Array } {
  const nodes = [start, ...stops];
  const size = nodes.length;
  const miles = new Float64Array(size * size);
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const d = haversineMiles(nodes[i], nodes[j]);
      miles[i * size + j] = d;
      miles[j * size + i] = d;
    }
  }
  return { size, miles };
}

function nearestNeighbour(size: number, miles: Float64Array): number[] {
  const path = [0];
  const visited = new Uint8Array(size);
  visited[0] = 1;
  let current = 0;
  for (let step = 1; step < size; step++) {
    let best = -1;
    let bestMiles = Infinity;
    for (let candidate = 1; candidate < size; candidate++) {
      if (visited[candidate]) continue;
      const d = miles[current * size + candidate];
      // Ties go to the lower index, so the same input always gives the same order.
      if (d < bestMiles) {
        bestMiles = d;
        best = candidate;
      }
    }
    visited[best] = 1;
    path.push(best);
    current = best;
  }
  return path;
}

/**
 * 2-opt on an open path that starts at node 0 (fixed): reverses path[i..j] whenever that shortens
 * the route, until a full pass finds nothing. Reversing up to the last stop only changes the
 * leg into the stretch, since no leg leaves the end. `maxPasses` bounds the work on odd inputs.
 */
export function twoOpt(path: number[], size: number, miles: Float64Array, maxPasses = 50): number[] {
  const route = [...path];
  const last = route.length - 1;
  const d = (a: number, b: number) => miles[route[a] * size + route[b]];
  for (let pass = 0; pass < maxPasses; pass++) {
    let improved = false;
    for (let i = 1; i < last; i++) {
      for (let j = i + 1; j <= last; j++) {
        const before = d(i - 1, i) + (j < last ? d(j, j + 1) : 0);
        const after = d(i - 1, j) + (j < last ? d(i, j + 1) : 0);
        if (after < before - 1e-9) {
          for (let a = i, b = j; a < b; a++, b--) [route[a], route[b]] = [route[b], route[a]];
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return route;
}

/** Straight-line miles of an open path over the matrix (node 0 first). */
function pathMiles(path: readonly number[], size: number, miles: Float64Array): number {
  let total = 0;
  for (let k = 1; k < path.length; k++) total += miles[path[k - 1] * size + path[k]];
  return total;
}

/**
 * The order in which to visit `stops` from `start`: indices into `stops`, and the straight-line
 * miles of that route (multiply by the detour factor for road miles).
 */
export function orderStops(start: Point, stops: readonly Point[]): { order: number[]; straightMiles: number } {
  if (stops.length === 0) return { order: [], straightMiles: 0 };
  const { size, miles } = distanceMatrix(start, stops);
  const path = twoOpt(nearestNeighbour(size, miles), size, miles);
  return { order: path.slice(1).map((node) => node - 1), straightMiles: pathMiles(path, size, miles) };
}

/** Straight-line miles of visiting `stops` in the order given, from `start`. */
export function routeMiles(start: Point, stops: readonly Point[]): number {
  let total = 0;
  let from = start;
  for (const stop of stops) {
    total += haversineMiles(from, stop);
    from = stop;
  }
  return total;
}

export { nearestNeighbour as nearestNeighbourForTests, distanceMatrix as distanceMatrixForTests };
