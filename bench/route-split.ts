// Splitting a day among technicians at scale (issue 36, item 2; docs/decisions/126): 20,000
// visits of a weekday at 100,000 customers among 200 technicians (100 stops each), split by area
// (the first day: nobody has a technician yet) and every route ordered (nearest neighbour + 2-opt,
// booked times respected), pure code; then the next week's day, where 19,800 customers keep
// their technician and 200 are new. Goal: each <= 5 s. Prints CPU time too (less noisy on a
// shared machine) and the spread of the routes' minutes around their mean (goal: within 20 %).
// Run: npm run bench route-split
import { planDayRoutes, workMinutes, type DayVisit, type DayWorker } from "~/features/route/day-routes";
import type { RouteTiming } from "~/features/route/route-plan";
import { fmt, report } from "./_report";

const VISITS = 20_000;
const WORKERS = 200;
const GOAL_S = 5;
const timing: RouteTiming = { circuityFactor: 1.3, averageSpeedMph: 25 };
const eight = new Date("2030-01-08T16:00:00Z");
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

// A metro area the size of Greater Los Angeles (1.2° by 1.2°), as 100k customers would need; one
// in ten visits booked for a time of the day; technicians start from 10 yards.
const yards = Array.from({ length: 10 }, () => ({
  latitude: 33.6 + random() * 1.2,
  longitude: -118.6 + random() * 1.2,
}));
const workers: DayWorker[] = Array.from({ length: WORKERS }, (_, n) => ({
  id: `tech-${String(n).padStart(3, "0")}`,
  start: yards[n % yards.length],
  end: null,
  workingMinutes: 480,
  departure: eight,
}));
const day = (prefix: string): DayVisit[] =>
  Array.from({ length: VISITS }, (_, n) => {
    const dogs = 1 + Math.floor(random() * 3);
    return {
      id: `${prefix}-${n}`,
      customerId: `customer-${n}`,
      location: { latitude: 33.6 + random() * 1.2, longitude: -118.6 + random() * 1.2 },
      serviceMinutes: 15 + (dogs - 1) * 5,
      startsAt: random() < 0.1 ? new Date(eight.getTime() + (1 + Math.floor(random() * 7)) * 3_600_000) : eight,
      status: "scheduled",
      manualTo: null,
      stableTo: null,
    };
  });

function timed(visits: DayVisit[]) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = planDayRoutes({ workers, visits, timing });
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const byId = new Map(visits.map((visit) => [visit.id, visit]));
  const minutes = result.routes.map((route) =>
    workMinutes(
      route.plan,
      route.visitIds.map((id) => byId.get(id)!),
      timing,
    ),
  );
  const mean = minutes.reduce((a, b) => a + b, 0) / minutes.length;
  const spread = Math.max(...minutes.map((m) => Math.abs(m - mean) / mean));
  return { result, wall, cpu: (used.user + used.system) / 1e6, spread, mean };
}

const week1 = day("week1");
const first = timed(week1);
report({
  figure: `splitting + ordering ${fmt(VISITS)} visits among ${WORKERS} technicians, first day (all by area)`,
  value: `${fmt(first.wall, 2)} s (CPU ${fmt(first.cpu, 2)} s); routes ${fmt(first.mean)} min mean, widest ${fmt(first.spread * 100, 1)} % off`,
  goal: `<= ${GOAL_S} s, within 20 %`,
  ok: first.wall <= GOAL_S && first.spread <= 0.2,
});
const stable = first.result.split.newStable;
// Next week: the same customers, places and bookings (each keeps their technician) but for 200
// who left, and 200 new customers elsewhere.
const fresh = day("new");
const week2 = week1.map((visit, n) =>
  n < VISITS - 200
    ? { ...visit, id: `week2-${n}`, stableTo: stable.get(visit.customerId) ?? null }
    : { ...fresh[n], customerId: `new-${n}` },
);
const second = timed(week2);
report({
  figure: `splitting + ordering ${fmt(VISITS)} visits among ${WORKERS} technicians, next week (stable + 200 new)`,
  value: `${fmt(second.wall, 2)} s (CPU ${fmt(second.cpu, 2)} s); routes ${fmt(second.mean)} min mean, widest ${fmt(second.spread * 100, 1)} % off`,
  goal: `<= ${GOAL_S} s, within 20 %`,
  ok: second.wall <= GOAL_S && second.spread <= 0.2,
});
