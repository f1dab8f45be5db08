import { describe, expect, test } from "vitest";
import { planDayRoutes, workMinutes, type DayVisit, type DayWorker } from "./day-routes";
import type { RouteTiming } from "./route-plan";

const timing: RouteTiming = { circuityFactor: 1.3, averageSpeedMph: 25 };
const YARD = { latitude: 36.1147, longitude: -115.1728 };
const DAY = "2030-01-08";
/** 8:00 AM in Las Vegas (PST, UTC−8) on DAY, plus minutes. */
const at = (minutes: number) => new Date(Date.parse(`${DAY}T16:00:00Z`) + minutes * 60_000);

function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/**
 * A realistic weekday: customers over the Las Vegas valley (denser in the middle, as the suburbs
 * are), 1 to 3 dogs, one in ten booked for a time of the day, the rest plan visits at 8:00;
 * technicians from the business's yard, two of them from home, one on a shorter day.
 */
function seededDay(customers: number, seed = 7) {
  const next = random(seed);
  const visits: DayVisit[] = Array.from({ length: customers }, (_, n) => {
    const spread = next() < 0.6 ? 0.12 : 0.3;
    const dogs = 1 + Math.floor(next() * 3);
    const booked = next() < 0.1 ? 60 * (1 + Math.floor(next() * 7)) : 0;
    return {
      id: `visit-${n}`,
      customerId: `customer-${String(n).padStart(4, "0")}`,
      location: { latitude: 36.15 + (next() - 0.5) * spread, longitude: -115.15 + (next() - 0.5) * spread * 1.2 },
      serviceMinutes: 15 + (dogs - 1) * 5,
      startsAt: at(booked),
      status: "scheduled",
      manualTo: null,
      stableTo: null,
    };
  });
  return visits;
}

const worker = (id: string, start = YARD, hours = 8): DayWorker => ({
  id,
  start,
  end: null,
  workingMinutes: hours * 60,
  departure: at(0),
});
const crew = () => [
  ...["t1", "t2", "t3", "t4", "t5"].map((id) => worker(id)),
  worker("t6", { latitude: 36.25, longitude: -115.25 }),
  worker("t7", { latitude: 36.03, longitude: -115.05 }),
];

function routeMinutes(result: ReturnType<typeof planDayRoutes>, visits: readonly DayVisit[]) {
  const byId = new Map(visits.map((visit) => [visit.id, visit]));
  return result.routes.map((route) =>
    workMinutes(
      route.plan,
      route.visitIds.map((id) => byId.get(id)!),
      timing,
    ),
  );
}

const within = (minutes: number[], tolerance: number) => {
  const mean = minutes.reduce((a, b) => a + b, 0) / minutes.length;
  return minutes.every((m) => Math.abs(m - mean) <= tolerance * mean);
};

describe("splitting a day into one route per technician", () => {
  test("a realistic day: every stop on one route, each route within 20 % of the mean minutes", () => {
    for (const seed of [7, 11, 23]) {
      const visits = seededDay(210, seed);
      const result = planDayRoutes({ workers: crew(), visits, timing });
      const placed = result.routes.flatMap((route) => route.visitIds);
      expect(placed.sort()).toEqual(visits.map((visit) => visit.id).sort());
      const minutes = routeMinutes(result, visits);
      expect(minutes.every((m) => m > 0)).toBe(true);
      expect(within(minutes, 0.2), `seed ${seed}: ${minutes.map(Math.round).join(", ")}`).toBe(true);
      // Not balanced by scattering: by area, the day drives far fewer miles than dealt round-robin.
      const dealt = planDayRoutes({
        workers: crew(),
        visits: visits.map((visit, n) => ({ ...visit, manualTo: `t${1 + (n % 7)}` })),
        timing,
      });
      const miles = (routes: typeof result.routes) => routes.reduce((sum, route) => sum + route.plan.miles, 0);
      expect(miles(result.routes)).toBeLessThan(miles(dealt.routes) * 0.6);
    }
  });

  test("a shorter working day gets a smaller share", () => {
    const visits = seededDay(120);
    const workers = [worker("full"), worker("half", YARD, 4), worker("other")];
    const result = planDayRoutes({ workers, visits, timing });
    const minutes = routeMinutes(result, visits);
    expect(minutes[1]).toBeLessThan(minutes[0] * 0.7);
    expect(minutes[1]).toBeLessThan(minutes[2] * 0.7);
  });

  test("stable assignment: next week every returning customer keeps their technician, new ones are placed", () => {
    const week1 = seededDay(210);
    const first = planDayRoutes({ workers: crew(), visits: week1, timing });
    expect(first.split.newStable.size).toBe(210);
    const stable = first.split.newStable;
    // Next week: the same customers but ten who left, and twelve new customers.
    const returning = week1.slice(10).map((visit) => ({
      ...visit,
      id: `${visit.id}-week2`,
      stableTo: stable.get(visit.customerId)!,
    }));
    const added = seededDay(12, 99).map((visit) => ({
      ...visit,
      id: `new-${visit.id}`,
      customerId: `new-${visit.customerId}`,
    }));
    const week2 = [...returning, ...added];
    const second = planDayRoutes({ workers: crew(), visits: week2, timing });
    for (const visit of returning) {
      expect(second.split.assignments.get(visit.id)).toBe(stable.get(visit.customerId));
    }
    expect([...second.split.newStable.keys()].sort()).toEqual(added.map((visit) => visit.customerId).sort());
    expect(within(routeMinutes(second, week2), 0.2)).toBe(true);
    // The same input always gives the same routes.
    const again = planDayRoutes({ workers: crew(), visits: week2, timing });
    expect([...again.split.assignments]).toEqual([...second.split.assignments]);
  });

  test("a stable technician who does not work the day: their customers are placed by area", () => {
    const visits = seededDay(40).map((visit) => ({ ...visit, stableTo: "away" }));
    const result = planDayRoutes({ workers: [worker("a"), worker("b")], visits, timing });
    expect(new Set(result.split.assignments.values())).toEqual(new Set(["a", "b"]));
  });

  test("a manual assignment is never overridden, even to someone not working the day", () => {
    const visits = seededDay(60).map((visit, n) =>
      n === 0 ? { ...visit, manualTo: "t7" } : n === 1 ? { ...visit, manualTo: "owner", stableTo: "t1" } : visit,
    );
    const result = planDayRoutes({ workers: crew(), visits, timing });
    expect(result.split.assignments.get("visit-0")).toBe("t7");
    expect(result.split.assignments.get("visit-1")).toBe("owner");
    expect(result.split.newStable.has(visits[0].customerId)).toBe(false);
    expect(result.routes.flatMap((route) => route.visitIds)).not.toContain("visit-1");
  });

  test("skipped and cancelled visits do not count toward a route", () => {
    const visits = seededDay(60);
    const withOff = visits.map((visit, n) =>
      n % 10 === 0 ? { ...visit, status: n % 20 === 0 ? "skipped" : "cancelled" } : visit,
    );
    const result = planDayRoutes({ workers: crew(), visits: withOff, timing });
    const placed = new Set(result.routes.flatMap((route) => route.visitIds));
    for (const [n, visit] of withOff.entries()) {
      expect(placed.has(visit.id)).toBe(n % 10 !== 0);
      expect(result.split.assignments.has(visit.id)).toBe(n % 10 !== 0);
    }
    const counted = [...result.split.estimatedMinutes.values()].reduce((a, b) => a + b, 0);
    const only = planDayRoutes({ workers: crew(), visits: withOff.filter((_, n) => n % 10 !== 0), timing });
    expect(counted).toBeCloseTo(
      [...only.split.estimatedMinutes.values()].reduce((a, b) => a + b, 0),
      6,
    );
  });

  test("booked times are respected: a visit booked for 2 PM is not stop 1 and not reached before 2 PM", () => {
    const visits = seededDay(24).map((visit, n) => ({ ...visit, startsAt: n === 0 ? at(6 * 60) : at(0) }));
    // The 2 PM visit is the one next to the start: ordered by distance alone it would be stop 1.
    visits[0] = { ...visits[0], location: { latitude: YARD.latitude + 0.001, longitude: YARD.longitude } };
    const result = planDayRoutes({ workers: [worker("solo")], visits, timing });
    const stops = result.routes[0].plan.stops;
    const booked = stops.find((stop) => stop.id === "visit-0")!;
    expect(booked.position).toBeGreaterThan(1);
    expect(booked.arrival!.getTime()).toBeGreaterThanOrEqual(at(6 * 60).getTime());
    // And not kept waiting for hours at its gate: it comes when the clock reaches 2 PM.
    const before = stops[booked.position - 2];
    expect(before.arrival!.getTime()).toBeLessThan(at(6 * 60).getTime());
    expect(stops[0].arrival!.getTime()).toBeLessThan(at(30).getTime());
  });

  test("nobody works the day: nothing is placed but the manual ones", () => {
    const visits = seededDay(5).map((visit, n) => (n === 0 ? { ...visit, manualTo: "t1" } : visit));
    const result = planDayRoutes({ workers: [], visits, timing });
    expect([...result.split.assignments]).toEqual([["visit-0", "t1"]]);
    expect(result.routes).toEqual([]);
  });
});
