import { describe, expect, test } from "vitest";
import { distanceMatrixForTests, haversineMiles, orderStops, routeMiles, twoOpt } from "./route-order";
import { moveStop, planRoute } from "./route-plan";

const start = { latitude: 36.0, longitude: -115.0 };
// Points along one meridian north of the start: one mile of latitude is 1/69.05 degree.
const north = (miles: number) => ({ latitude: 36.0 + miles / 69.05, longitude: -115.0 });

describe("haversineMiles", () => {
  test("a degree of latitude is about 69 miles; Las Vegas to Pahrump about 45 miles", () => {
    expect(haversineMiles({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(69.09, 1);
    const vegas = { latitude: 36.1699, longitude: -115.1398 };
    const pahrump = { latitude: 36.2083, longitude: -115.9839 };
    expect(haversineMiles(vegas, pahrump)).toBeGreaterThan(45);
    expect(haversineMiles(vegas, pahrump)).toBeLessThan(48);
  });
});

describe("orderStops", () => {
  test("stops on a line, given shuffled, are visited outward from the start", () => {
    const stops = [north(5), north(1), north(4), north(2), north(3)];
    const { order, straightMiles } = orderStops(start, stops);
    expect(order).toEqual([1, 3, 4, 2, 0]);
    expect(straightMiles).toBeCloseTo(5, 1);
  });

  test("a small instance whose best order is known: the corners of a square, from one corner", () => {
    // Start at the south-west corner; the four other points are the square's corners and the
    // middle of its east side. The best open route walks the perimeter: 4 miles.
    const mile = 1 / 69.05;
    const lonMile = mile / Math.cos((36 * Math.PI) / 180);
    const at = (x: number, y: number) => ({ latitude: 36 + y * mile, longitude: -115 + x * lonMile });
    const stops = [at(1, 1), at(0, 1), at(1, 0), at(1, 0.5)];
    const { order, straightMiles } = orderStops(at(0, 0), stops);
    expect(straightMiles).toBeCloseTo(3, 1);
    // Either way round the square: east side first then the north-east and north-west corners,
    // or north-west first then the north-east corner and down the east side.
    expect([
      [2, 3, 0, 1],
      [1, 0, 3, 2],
    ]).toContainEqual(order);
  });

  test("2-opt undoes a crossing", () => {
    // Start at the south-west corner of a one-mile square; the route start -> north-east ->
    // north-west -> south-east crosses itself (its first and last legs are the diagonals).
    const mile = 1 / 69.05;
    const lonMile = mile / Math.cos((36 * Math.PI) / 180);
    const at = (x: number, y: number) => ({ latitude: 36 + y * mile, longitude: -115 + x * lonMile });
    const stops = [at(0, 1), at(1, 1), at(1, 0)];
    const { size, miles } = distanceMatrixForTests(at(0, 0), stops);
    const crossing = [0, 2, 1, 3];
    const improved = twoOpt(crossing, size, miles);
    const length = (path: number[]) =>
      routeMiles(
        at(0, 0),
        path.slice(1).map((node) => stops[node - 1]),
      );
    expect(length(crossing)).toBeCloseTo(1 + 2 * Math.SQRT2, 1);
    expect(length(improved)).toBeCloseTo(3, 1);
    expect(improved[0]).toBe(0);
    expect([...improved].sort()).toEqual([0, 1, 2, 3]);
  });

  test("no stops, one stop", () => {
    expect(orderStops(start, [])).toEqual({ order: [], straightMiles: 0 });
    expect(orderStops(start, [north(2)]).order).toEqual([0]);
  });
});

describe("planRoute", () => {
  const eight = new Date("2027-03-02T16:00:00Z");
  const stop = (id: string, miles: number | null, serviceMinutes = 15) => ({
    id,
    location: miles === null ? null : north(miles),
    serviceMinutes,
    startsAt: eight,
  });

  test("arrivals add drive time at the average speed and the minutes at each stop; no location last", () => {
    const route = planRoute({
      start,
      timing: { circuityFactor: 1.5, averageSpeedMph: 30 },
      stops: [stop("far", 20), stop("none", null), stop("near", 10, 20)],
    });
    expect(route.stops.map((s) => s.id)).toEqual(["near", "far", "none"]);
    // 10 straight miles x 1.5 = 15 road miles at 30 mph: 30 minutes; then 20 minutes there.
    const minutesAfterEight = (date: Date | null) => (date!.getTime() - eight.getTime()) / 60_000;
    expect(minutesAfterEight(route.stops[0].arrival)).toBeCloseTo(30, 0);
    expect(minutesAfterEight(route.stops[1].arrival)).toBeCloseTo(30 + 20 + 30, 0);
    expect(route.stops[2]).toMatchObject({ position: 3, arrival: null, legMiles: null });
    expect(route.miles).toBeCloseTo(30, 1);
    expect(route.minutes).toBeCloseTo(30 + 20 + 30 + 15, 1);
    expect(route.manual).toBe(false);
  });

  test("a manual order is followed; stops added since go after it", () => {
    const route = planRoute({
      start,
      timing: { circuityFactor: 1.3, averageSpeedMph: 30 },
      stops: [stop("a", 1), stop("b", 2), stop("c", 3), stop("new", 0.5)],
      manualOrder: ["c", "a", "gone", "b"],
    });
    expect(route.stops.map((s) => s.id)).toEqual(["c", "a", "b", "new"]);
    expect(route.manual).toBe(true);
  });

  test("moveStop swaps with the neighbour, refuses to leave either end", () => {
    expect(moveStop(["a", "b", "c"], "b", -1)).toEqual(["b", "a", "c"]);
    expect(moveStop(["a", "b", "c"], "b", 1)).toEqual(["a", "c", "b"]);
    expect(moveStop(["a", "b", "c"], "a", -1)).toBeNull();
    expect(moveStop(["a", "b", "c"], "c", 1)).toBeNull();
    expect(moveStop(["a", "b", "c"], "x", 1)).toBeNull();
  });
});
