import { ON_ROUTE_STATUSES, planDayRoutes } from "./day-routes";
import { dayVisitsOf, dayWorkerOf, splitBusinessDay } from "./day-split.server";
import { haversineMiles, type Point } from "./route-order";
import { weekdayOf } from "./route-stops.server";
import { zipCentroid } from "./zip-centroids.server";
import { getRouteSettings } from "~/content/content.server";
import { addDays, businessToday, isCalendarDay, startOfBusinessDay } from "~/features/visits/visit-dates";
import { customersOfTechnician, setCustomerTechnicians } from "~/models/customer-technician.server";
import { listRouteWorkers } from "~/models/staff-route.server";
import { isActiveStaff } from "~/models/staff.server";
import { yardPlacesOf } from "~/models/yard-profile.server";
import { reassignVisit } from "~/features/staff/visit-assignment.server";
import { assignComingVisitsOfCustomers, listVisitsBetween } from "~/models/visit.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { getDb } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

export const ROUTES_PATH = "/admin-dashboard/routes";
const DAY_LIMIT = 5_000;
const timeOf = (date: Date) => formatBusinessDateTime(date).split(", ").at(-1) ?? "";

/** The day of `?date=` (default today); null for anything that is not a real day. */
export function dayOf(url: URL, now = new Date()): string | null {
  const value = url.searchParams.get("date");
  if (value === null || value === "") return businessToday(now);
  return isCalendarDay(value) ? value : null;
}

/**
 * The owner's routes page (docs/decisions/126): the day's routes side by side, each as its
 * technician works it (their start, their hour, ordered as Today orders one route), stops not
 * on anybody's route yet apart. Read only: the split runs by the job or "Split the day".
 */
export async function loadRoutesPage(day: string) {
  const settings = await getRouteSettings();
  const from = startOfBusinessDay(day)!;
  const to = startOfBusinessDay(addDays(day, 1))!;
  const everyone = await listRouteWorkers(null);
  const workingToday = new Set((await listRouteWorkers(weekdayOf(day))).map((w) => w.userId));
  const rows = await listVisitsBetween(from, to, { limit: DAY_LIMIT + 1 });
  const shown = rows.slice(0, DAY_LIMIT);
  const onRoute = shown.filter((row) => ON_ROUTE_STATUSES.has(row.status));
  // Everyone with a stop that day, or working that day, gets a column.
  const columns = everyone.filter(
    (w) => workingToday.has(w.userId) || onRoute.some((row) => row.assigned_to === w.userId),
  );
  const timing = settings.timing;
  const visits = await dayVisitsOf(onRoute, new Map());
  // The routes as they stand: every visit stays with whoever has it now (no new split here).
  const pinned = visits.map((visit, n) => ({ ...visit, manualTo: onRoute[n].assigned_to ?? "nobody" }));
  const planned = timing
    ? planDayRoutes({ workers: columns.map((w) => dayWorkerOf(w, day)), visits: pinned, timing }).routes
    : [];
  const rowById = new Map(shown.map((row) => [row.id, row]));
  const card = (id: string, arrival: Date | null, position: number | null) => {
    const row = rowById.get(id)!;
    return {
      id,
      customerId: row.customer_id,
      position,
      time: timeOf(row.service_date),
      arrival: arrival ? timeOf(arrival) : null,
      customer: row.customer_name ?? row.customer_email,
      address: [row.street, row.city, row.zip].filter(Boolean).join(", ") || null,
      byHand: row.assigned_by_hand,
    };
  };
  const routes = columns.map((worker) => {
    const route = planned.find((r) => r.workerId === worker.userId);
    return {
      id: worker.userId,
      label: worker.label,
      startName: worker.start.name,
      hours: `${clock(worker.dayStartsAt)}–${clock(worker.dayEndsAt)}`,
      working: workingToday.has(worker.userId),
      stops: route ? route.plan.stops.map((stop) => card(stop.id, stop.arrival, stop.position)) : [],
      miles: route?.plan.miles ?? 0,
      minutes: route?.plan.minutes ?? 0,
    };
  });
  const placed = new Set(routes.flatMap((route) => route.stops.map((stop) => stop.id)));
  return {
    day,
    dayLabel: formatBusinessDate(from),
    timingSet: Boolean(timing),
    truncated: rows.length > DAY_LIMIT,
    routes,
    unassigned: onRoute.filter((row) => !placed.has(row.id)).map((row) => card(row.id, null, null)),
    offRoute: shown.length - onRoute.length,
    workers: everyone.map((w) => ({ id: w.userId, label: w.label })),
  };
}

const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

export type RoutesActionResult = { ok: true; description: string } | { ok: false; status: number; description: string };

const MAX_FORM_BYTES = 8 * 1024;
const fail = (status: number, description: string): RoutesActionResult => ({ ok: false, status, description });

/** "Split the day", "Move this visit", "Move the customer", "Reassign". Capability checked by the caller. */
export async function handleRoutesAction(
  request: Request,
  day: string,
  actorId: string,
  now = new Date(),
): Promise<RoutesActionResult> {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) return fail(413, "That form is too large");
  const form = await request.formData().catch(() => null);
  if (!form) return fail(400, "That form could not be read");
  const field = (name: string) => String(form.get(name) ?? "");
  const intent = field("intent");
  const routeWorkers = new Set((await listRouteWorkers(null)).map((w) => w.userId));
  const target = field("to");
  const validTarget = isUuid(target) && routeWorkers.has(target) && (await isActiveStaff(target));
  if (intent === "split") {
    const result = await splitBusinessDay(day);
    if (!result.ran) return fail(409, result.reason);
    return {
      ok: true,
      description: `Day split: ${result.assigned} visits placed, ${result.newCustomers} new customers`,
    };
  }
  if (intent === "move-stop" || intent === "move-customer") {
    if (!validTarget) return fail(400, "Choose who works a route to move it to");
    const visitId = field("visitId");
    const rows = isUuid(visitId)
      ? await listVisitsBetween(startOfBusinessDay(day)!, startOfBusinessDay(addDays(day, 1))!, { limit: DAY_LIMIT })
      : [];
    const row = rows.find((r) => r.id === visitId);
    if (!row) return fail(404, "That visit is not on this day");
    if (intent === "move-stop") {
      // By hand, with its History line, as on the visit's page (decisions 126 and 128).
      await reassignVisit(visitId, target, actorId);
      return { ok: true, description: "Stop moved" };
    }
    const db = await getDb();
    await db.transaction().execute(async (trx) => {
      await setCustomerTechnicians(trx, [{ customerId: row.customer_id, technicianId: target }], "owner");
      await assignComingVisitsOfCustomers(trx, [row.customer_id], target, startOfBusinessDay(businessToday(now))!);
    });
    return { ok: true, description: "Customer moved, with their coming visits" };
  }
  if (intent === "reassign") {
    const leaving = field("from");
    if (!isUuid(leaving) || !routeWorkers.has(leaving)) return fail(400, "Choose whose customers to reassign");
    const byArea = target === "area";
    if (!byArea && (!validTarget || target === leaving))
      return fail(400, "Choose another technician, or split by area");
    const others = (await listRouteWorkers(null)).filter((w) => w.userId !== leaving);
    if (others.length === 0) return fail(409, "Nobody else works a route");
    const customers = await customersOfTechnician(leaving);
    const places = new Map<string, Point>();
    for (const yard of byArea ? await yardPlacesOf(customers) : []) {
      const own = yard.latitude !== null && yard.longitude !== null;
      const place = own ? { latitude: yard.latitude!, longitude: yard.longitude! } : await zipCentroid(yard.zip);
      if (place) places.set(yard.user_id, place);
    }
    const groups = new Map<string, string[]>();
    for (const customerId of customers) {
      const place = places.get(customerId);
      const to = byArea
        ? place
          ? others.reduce((best, w) => (haversineMiles(place, w.start) < haversineMiles(place, best.start) ? w : best))
              .userId
          : others[customers.indexOf(customerId) % others.length].userId
        : target;
      groups.set(to, [...(groups.get(to) ?? []), customerId]);
    }
    const db = await getDb();
    const from = startOfBusinessDay(businessToday(now))!;
    await db.transaction().execute(async (trx) => {
      for (const [to, ids] of groups) {
        await setCustomerTechnicians(
          trx,
          ids.map((customerId) => ({ customerId, technicianId: to })),
          "owner",
        );
        await assignComingVisitsOfCustomers(trx, ids, to, from);
      }
    });
    return { ok: true, description: `${customers.length} customers reassigned` };
  }
  return fail(400, "Unknown action");
}
