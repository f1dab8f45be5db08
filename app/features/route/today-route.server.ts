import { planRoute, moveStop } from "./route-plan";
import { ON_ROUTE_STATUSES } from "./day-routes";
import type { Point } from "./route-order";
import { dayStartOf, stopInputsOf } from "./route-stops.server";
import { getRouteSettings } from "~/content/content.server";
import type { RouteSettings } from "~/content/types";
import { SKIP_REASON_LABELS } from "~/features/plans/plan-constants";
import { phoneLink } from "~/features/visits/phone-link";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { deleteRouteOrder, getRouteOrder, saveRouteOrder } from "~/models/route-order.server";
import { getStaffRoute } from "~/models/staff-route.server";
import { listVisitsBetween, visitExists, type TodayRow } from "~/models/visit.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { isUuid } from "~/utils/uuid";

/** Visits a page when the day is listed by time; "Next 50 visits" goes on (decision 076). */
export const TODAY_PAGE_SIZE = 50;
/**
 * The most visits a day can have and still be ordered as one route (Sweep&Go's routes hold up to
 * 100 stops). A busier day is listed by time, paged, until it is split into one route per
 * technician.
 */
export const ROUTE_VISIT_LIMIT = 100;
/** One route a day for now; one per technician later adds keys (migration 0012). */
export const ALL_STOPS_ROUTE = "all";

const timeOf = (date: Date) => formatBusinessDateTime(date).split(", ").at(-1) ?? "";

function cardOf(row: TodayRow) {
  return {
    id: row.id,
    time: timeOf(row.service_date),
    date: row.service_date.toISOString(),
    serviceType: row.service_type,
    status: row.status,
    fromPlan: row.plan_id !== null,
    skipReason: row.status === "skipped" && row.skip_reason ? SKIP_REASON_LABELS[row.skip_reason] : null,
    customer: row.customer_name ?? row.customer_email,
    address: [row.street, row.city, row.zip].filter(Boolean).join(", ") || null,
    dogs: row.dog_count ?? null,
    dogNames: row.dog_names,
    looseDog: Boolean(row.loose_dog),
    hazards: row.hazards,
    hasGateCode: row.has_gate_code,
    /** A `tel:` link to the customer, or null: Today is for admins only. */
    phone: phoneLink(row.phone),
    /** "10:31 AM" when "On my way" was sent, so a second press is not offered. */
    onMyWaySentAt: row.on_my_way_at ? timeOf(row.on_my_way_at) : null,
    // The route's part; null when the day is listed by time or the visit is not a stop.
    position: null as number | null,
    arrival: null as string | null,
    arrivalAt: null as string | null,
    /** "No location": neither the yard's coordinates nor a known ZIP code. */
    noLocation: false,
    /** Placed by its ZIP code's centre, not the yard's own coordinates. */
    approximate: false,
    canMoveUp: false,
    canMoveDown: false,
  };
}

export type TodayStop = ReturnType<typeof cardOf>;

export type TodayPage = {
  dayLabel: string;
  pageGone: boolean;
  paged: boolean;
  next: string | null;
  visits: TodayStop[];
  /** The day's route, when it is ordered as one. */
  route: { startName: string; stops: number; miles: number; minutes: number; manual: boolean } | null;
  /** Why the day is listed by time instead, when it has visits. */
  routeNote: string | null;
};

/** Today's page: the day as a route when it can be one, else by time, 50 a page. */
export async function loadToday(url: URL, now = new Date(), scope: { assignedTo?: string } = {}): Promise<TodayPage> {
  const today = businessToday(now);
  const from = startOfBusinessDay(today)!;
  const to = startOfBusinessDay(addDays(today, 1))!;
  const dayLabel = formatBusinessDate(from);
  const afterParam = url.searchParams.get("after");
  if (!afterParam) {
    const rows = await listVisitsBetween(from, to, { limit: ROUTE_VISIT_LIMIT + 1, ...scope });
    if (rows.length <= ROUTE_VISIT_LIMIT) {
      const settings = await getRouteSettings();
      // A technician's Today is their own route: from their start, at their hour (decision 126).
      const own = scope.assignedTo ? await ownRouteOf(today, scope.assignedTo) : null;
      if ((own || settings.start) && settings.timing) {
        const routeKey = scope.assignedTo ?? ALL_STOPS_ROUTE;
        const route = await routeOf(rows, settings, await getRouteOrder(today, routeKey), own);
        return { dayLabel, pageGone: false, paged: false, next: null, ...route };
      }
      return {
        ...byTime(rows, dayLabel, false, false),
        routeNote: rows.length ? "Set the route start in Site settings › Route to see the day in route order." : null,
      };
    }
    return {
      ...byTime(rows, dayLabel, false, false),
      routeNote: `More than ${ROUTE_VISIT_LIMIT} visits today, too many for one route: listed by time.`,
    };
  }
  // `after` is the id of the last visit of the page before (keyset, as the Visits list).
  let after = isUuid(afterParam) ? afterParam : null;
  let rows = after ? await listVisitsBetween(from, to, { after, limit: TODAY_PAGE_SIZE + 1, ...scope }) : [];
  let pageGone = false;
  if (!after || (rows.length === 0 && !(await visitExists(after)))) {
    // A malformed or stale link (its visit deleted since): the first page, and say so.
    pageGone = true;
    after = null;
    rows = await listVisitsBetween(from, to, { limit: TODAY_PAGE_SIZE + 1, ...scope });
  }
  return { ...byTime(rows, dayLabel, pageGone, Boolean(after)), routeNote: null };
}

function byTime(rows: TodayRow[], dayLabel: string, pageGone: boolean, paged: boolean) {
  const page = rows.slice(0, TODAY_PAGE_SIZE);
  return {
    dayLabel,
    pageGone,
    paged,
    next: rows.length > TODAY_PAGE_SIZE ? (page.at(-1)?.id ?? null) : null,
    visits: page.map(cardOf),
    route: null,
  };
}

/** A technician's own route: their start, end and the hour their day starts (decision 126). */
type OwnRoute = { start: { name: string } & Point; end: Point | null; departure: Date };

/** A staff member's own route of a day (decision 126), or null when they have no route settings. */
async function ownRouteOf(day: string, staffId: string): Promise<OwnRoute | null> {
  const mine = await getStaffRoute(staffId);
  return mine ? { start: mine.start, end: mine.end, departure: dayStartOf(day, mine.dayStartsAt) } : null;
}

/**
 * One staff member's route of a day as their Today plans it (their start and hour, or the
 * business's; the same timing, stop minutes and hand-made order): the Staff page's miles planned
 * and each stop's driving leg (decision 128). Null when no start is set, or the day has more stops
 * than one route holds.
 */
export async function plannedRouteOf(day: string, assignedTo: string) {
  const from = startOfBusinessDay(day);
  const to = startOfBusinessDay(addDays(day, 1));
  if (!from || !to) return null;
  const rows = await listVisitsBetween(from, to, { limit: ROUTE_VISIT_LIMIT + 1, assignedTo });
  const settings = await getRouteSettings();
  const own = await ownRouteOf(day, assignedTo);
  const start = own?.start ?? settings.start;
  if (rows.length > ROUTE_VISIT_LIMIT || !start || !settings.timing) return null;
  const planned = cachedPlan({
    start,
    end: own?.end ?? null,
    departure: own?.departure ?? null,
    timing: settings.timing,
    stops: await stopInputsOf(
      rows.filter((row) => ON_ROUTE_STATUSES.has(row.status)),
      settings,
    ),
    manualOrder: await getRouteOrder(day, assignedTo),
  });
  return { ...planned, averageSpeedMph: settings.timing.averageSpeedMph };
}

async function routeOf(
  rows: TodayRow[],
  settings: RouteSettings,
  manualOrder: string[] | null,
  own: OwnRoute | null = null,
) {
  const start = own?.start ?? settings.start!;
  const inputs = await stopInputsOf(
    rows.filter((row) => ON_ROUTE_STATUSES.has(row.status)),
    settings,
  );
  const planned = cachedPlan({
    start,
    end: own?.end ?? null,
    departure: own?.departure ?? null,
    timing: settings.timing!,
    stops: inputs,
    manualOrder,
  });
  const rowById = new Map(rows.map((row) => [row.id, row]));
  const inputById = new Map(inputs.map((input) => [input.id, input]));
  const visits = planned.stops.map((stop, index) => ({
    ...cardOf(rowById.get(stop.id)!),
    position: stop.position,
    arrival: stop.arrival ? timeOf(stop.arrival) : null,
    arrivalAt: stop.arrival?.toISOString() ?? null,
    noLocation: !inputById.get(stop.id)!.location,
    approximate: inputById.get(stop.id)!.approximate,
    canMoveUp: index > 0,
    canMoveDown: index < planned.stops.length - 1,
  }));
  const offRoute = rows.filter((row) => !ON_ROUTE_STATUSES.has(row.status)).map(cardOf);
  return {
    visits: [...visits, ...offRoute],
    route: {
      startName: start.name,
      stops: visits.length,
      miles: planned.miles,
      minutes: planned.minutes,
      manual: planned.manual,
    },
    routeNote: null,
  };
}

/**
 * The last few days' plans, by everything they are made of (start, timing, each stop's id,
 * place, minutes and time, the hand-made order): Today is reloaded all day long and its inputs
 * rarely change, so the ordering runs once per change, not once per load. Bounded: 8 entries.
 */
const planCache = new Map<string, ReturnType<typeof planRoute>>();
const PLAN_CACHE_ENTRIES = 8;

function cachedPlan(input: Parameters<typeof planRoute>[0]) {
  const key = JSON.stringify([
    input.start,
    input.end ?? null,
    input.departure?.getTime() ?? null,
    input.timing,
    input.manualOrder ?? null,
    input.stops.map((stop) => [
      stop.id,
      stop.location?.latitude,
      stop.location?.longitude,
      stop.serviceMinutes,
      stop.startsAt.getTime(),
    ]),
  ]);
  const hit = planCache.get(key);
  if (hit) return hit;
  const planned = planRoute(input);
  if (planCache.size >= PLAN_CACHE_ENTRIES) planCache.delete(planCache.keys().next().value!);
  planCache.set(key, planned);
  return planned;
}

export type TodayActionResult =
  { ok: true; description: string; stopId: string | null } | { ok: false; status: number; description: string };

const MAX_FORM_BYTES = 8 * 1024;

/**
 * Today's forms: "Move up" / "Move down" store the whole order of the day's route as the admin
 * now sees it (kept until "Optimise again", which deletes it). Admin checked by the caller.
 */
export async function handleTodayAction(
  request: Request,
  adminId: string,
  now = new Date(),
): Promise<TodayActionResult> {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) {
    return { ok: false, status: 413, description: "That form is too large" };
  }
  const form = await request.formData().catch(() => null);
  if (!form) return { ok: false, status: 400, description: "That form could not be read" };
  const intent = form.get("intent");
  const today = businessToday(now);
  if (intent === "optimise") {
    await deleteRouteOrder(today, ALL_STOPS_ROUTE);
    return { ok: true, description: "Route optimised", stopId: null };
  }
  if (intent !== "move-up" && intent !== "move-down") {
    return { ok: false, status: 400, description: "Unknown action" };
  }
  const visitId = String(form.get("visitId") ?? "");
  const page = await loadToday(new URL("http://local/"), now);
  if (!page.route) return { ok: false, status: 409, description: "Today is not listed as a route" };
  const order = page.visits.filter((visit) => visit.position !== null).map((visit) => visit.id);
  if (!order.includes(visitId)) return { ok: false, status: 404, description: "That visit is not on today’s route" };
  const moved = moveStop(order, visitId, intent === "move-up" ? -1 : 1);
  if (!moved) {
    return {
      ok: false,
      status: 409,
      description: intent === "move-up" ? "That stop is already first" : "That stop is already last",
    };
  }
  await saveRouteOrder(today, ALL_STOPS_ROUTE, moved, adminId);
  return { ok: true, description: "Order saved", stopId: visitId };
}
