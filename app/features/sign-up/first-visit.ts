import { isoWeekday } from "~/features/plans/plan-schedule";
import { addDays } from "~/features/visits/visit-dates";

/**
 * The first visit a sign-up can have, pure (docs/decisions/129): today when started before the
 * owner's same-day cut-off, else from tomorrow; on one of the chosen service days; never a closed
 * day nor a full one (the day's visits at the owner's capacity).
 */

/** How far ahead a first visit is looked for: two weeks (within every plan horizon, 7 days or more). */
export const FIRST_VISIT_SEARCH_DAYS = 14;

/** The days a first visit could fall on, before capacity is known: the caller counts their visits. */
export function firstVisitCandidates(input: {
  today: string;
  /** "HH:MM" now, business time. */
  timeNow: string;
  sameDayCutoff: string;
  weekdays: readonly number[];
  closedDays: ReadonlySet<string>;
}): string[] {
  const first = input.timeNow < input.sameDayCutoff ? input.today : addDays(input.today, 1);
  const wanted = new Set(input.weekdays);
  const days: string[] = [];
  for (let day = first; day <= addDays(input.today, FIRST_VISIT_SEARCH_DAYS); day = addDays(day, 1)) {
    if (wanted.has(isoWeekday(day)) && !input.closedDays.has(day)) days.push(day);
  }
  return days;
}

/** The first candidate whose visits are below the capacity; null when all are full. */
export function firstOpenDay(
  candidates: readonly string[],
  visitsOn: ReadonlyMap<string, number>,
  capacity: number,
): string | null {
  return candidates.find((day) => (visitsOn.get(day) ?? 0) < capacity) ?? null;
}
