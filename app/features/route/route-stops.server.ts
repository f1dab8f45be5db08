import type { RouteStopInput } from "./route-plan";
import { zipCentroid } from "./zip-centroids.server";
import type { RouteSettings } from "~/content/types";
import type { TodayRow } from "~/models/visit.server";
import { parseBusinessDateTime } from "~/utils/business-time";

/** Minutes at one visit: its catalogue plan's (or the default), plus each dog after the first. */
export function serviceMinutesOf(row: TodayRow, settings: RouteSettings, planMinutes: Map<string, number>) {
  const timing = settings.timing!;
  const base = (row.catalogue_plan_id && planMinutes.get(row.catalogue_plan_id)) || timing.defaultServiceMinutes;
  const dogs = row.plan_dog_count ?? row.dog_count ?? 1;
  return base + Math.max(0, dogs - 1) * timing.minutesPerExtraDog;
}

/** A day's rows as the planner's stops: the yard's place, else its ZIP code's centre (approximate). */
export async function stopInputsOf(
  rows: readonly TodayRow[],
  settings: RouteSettings,
): Promise<(RouteStopInput & { approximate: boolean })[]> {
  const planMinutes = new Map(settings.planMinutes.map((plan) => [plan._id, plan.serviceMinutes]));
  const inputs: (RouteStopInput & { approximate: boolean })[] = [];
  for (const row of rows) {
    const own =
      row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null;
    const location = own ?? (await zipCentroid(row.zip));
    inputs.push({
      id: row.id,
      location,
      approximate: !own && Boolean(location),
      serviceMinutes: serviceMinutesOf(row, settings, planMinutes),
      startsAt: row.service_date,
    });
  }
  return inputs;
}

/** When a staff member's day starts on `day` ("YYYY-MM-DD"), as an instant (DST-correct). */
export function dayStartOf(day: string, minutes: number): Date {
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return parseBusinessDateTime(`${day}T${hh}:${mm}`)!;
}

/** The weekday of a business day (0 Sunday … 6 Saturday). */
export function weekdayOf(day: string): number {
  return new Date(`${day}T12:00:00Z`).getUTCDay();
}
