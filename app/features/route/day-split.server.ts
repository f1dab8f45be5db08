import { planDayRoutes, ON_ROUTE_STATUSES, type DayVisit, type DayWorker } from "./day-routes";
import { dayStartOf, stopInputsOf, weekdayOf } from "./route-stops.server";
import { getRouteSettings } from "~/content/content.server";
import { addDays, startOfBusinessDay } from "~/features/visits/visit-dates";
import { setCustomerTechnicians, technicianOfCustomers } from "~/models/customer-technician.server";
import { listRouteWorkers, type StaffRouteRow } from "~/models/staff-route.server";
import { listVisitsBetween, setSplitAssignments, type TodayRow } from "~/models/visit.server";
import { getDb } from "~/utils/db.server";

/** The most visits of one day the split reads (20,000 on a weekday at 100k customers). */
const DAY_VISIT_LIMIT = 50_000;

export type DaySplitResult =
  | { ran: true; day: string; workers: number; stops: number; assigned: number; newCustomers: number }
  | { ran: false; day: string; reason: string };

export function dayWorkerOf(route: StaffRouteRow, day: string): DayWorker {
  return {
    id: route.userId,
    start: route.start,
    end: route.end,
    workingMinutes: route.dayEndsAt - route.dayStartsAt,
    departure: dayStartOf(day, route.dayStartsAt),
  };
}

/** The day's visits as the split sees them (places, minutes, who has them by hand or keeps them). */
export async function dayVisitsOf(rows: readonly TodayRow[], stable: Map<string, string>) {
  const settings = await getRouteSettings();
  const inputs = await stopInputsOf(rows, settings);
  return rows.map((row, index): DayVisit => ({
    ...inputs[index],
    customerId: row.customer_id,
    status: row.status,
    // By hand, or already worked (completed, missed): it stays with whoever has it.
    manualTo: row.assigned_by_hand || row.status !== "scheduled" ? row.assigned_to : null,
    stableTo: stable.get(row.customer_id) ?? null,
  }));
}

/**
 * Splits one business day (docs/decisions/126): the day's stops among the staff who work a
 * route that weekday, each customer with their technician, new customers placed by area and
 * kept with that technician from now on. Visits assigned by hand are never changed; skipped and
 * cancelled ones are left as they are. Run by the routes job and by "Split the day".
 */
export async function splitBusinessDay(day: string): Promise<DaySplitResult> {
  const settings = await getRouteSettings();
  if (!settings.timing) return { ran: false, day, reason: "Set the route timing in Site settings › Route first." };
  const from = startOfBusinessDay(day);
  if (!from) return { ran: false, day, reason: "Not a day" };
  const to = startOfBusinessDay(addDays(day, 1))!;
  const workers = (await listRouteWorkers(weekdayOf(day))).map((route) => dayWorkerOf(route, day));
  if (workers.length === 0) return { ran: false, day, reason: "Nobody works a route that day." };
  const rows = await listVisitsBetween(from, to, { limit: DAY_VISIT_LIMIT });
  const stable = await technicianOfCustomers(rows.map((row) => row.customer_id));
  const visits = await dayVisitsOf(rows, stable);
  const { split } = planDayRoutes({ workers, visits, timing: settings.timing });
  const rowById = new Map(rows.map((row) => [row.id, row]));
  const changes = [...split.assignments].filter(([visitId, staffId]) => {
    const row = rowById.get(visitId)!;
    return ON_ROUTE_STATUSES.has(row.status) && !row.assigned_by_hand && row.assigned_to !== staffId;
  });
  const db = await getDb();
  const assigned = await db.transaction().execute(async (trx) => {
    await setCustomerTechnicians(
      trx,
      [...split.newStable].map(([customerId, technicianId]) => ({ customerId, technicianId })),
      "split",
    );
    return setSplitAssignments(
      trx,
      changes.map(([visitId, staffId]) => ({ visitId, staffId })),
    );
  });
  return {
    ran: true,
    day,
    workers: workers.length,
    stops: visits.filter((visit) => ON_ROUTE_STATUSES.has(visit.status)).length,
    assigned,
    newCustomers: split.newStable.size,
  };
}

/** The days a technician sees (today and the next 7): the routes job splits each. */
export async function splitComingDays(today: string, days = 8): Promise<DaySplitResult[]> {
  const results: DaySplitResult[] = [];
  for (let offset = 0; offset < days; offset++) results.push(await splitBusinessDay(addDays(today, offset)));
  return results;
}
