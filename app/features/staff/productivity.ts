import type { MissedReason, SkipReason, VisitStatus } from "../../../db/enums";
import { SKIP_REASON_LABELS } from "~/features/plans/plan-constants";
import { MISSED_REASON_LABELS } from "~/features/visits/visit-constants";

/** A visit of the day as productivity reads it (decision 128). */
export type DayVisit = {
  id: string;
  status: VisitStatus;
  skipReason: SkipReason | null;
  missedReason: MissedReason | null;
  onMyWayAt: Date | null;
  completedAt: Date | null;
};

export type DaySummary = {
  stopsDone: number;
  /** Whole minutes on site over the timed stops; null when none was timed. */
  minutesOnSite: number | null;
  /** Completed stops with an "On my way" press before their completion: the ones with a time. */
  timedStops: number;
  milesPlanned: number | null;
  skips: { label: string; count: number }[];
};

/**
 * One staff member's day (decision 128). A stop is done when completed. Its minutes on site are
 * the span from "On my way" to "Mark Completed" less the planned drive to it (its route leg at
 * the average speed), never below zero; a completed stop without a press before it is counted
 * done but not timed. Skips: skipped visits by their skip reason, missed ones by their reason.
 */
export function summariseDay(
  visits: readonly DayVisit[],
  route: { miles: number; legMinutes: ReadonlyMap<string, number> } | null,
): DaySummary {
  let stopsDone = 0;
  let timedStops = 0;
  let onSiteMs = 0;
  const skips = new Map<string, number>();
  for (const visit of visits) {
    if (visit.status === "completed") {
      stopsDone += 1;
      if (visit.completedAt && visit.onMyWayAt && visit.onMyWayAt < visit.completedAt) {
        timedStops += 1;
        const driveMs = (route?.legMinutes.get(visit.id) ?? 0) * 60_000;
        onSiteMs += Math.max(0, visit.completedAt.getTime() - visit.onMyWayAt.getTime() - driveMs);
      }
    }
    const label =
      visit.status === "skipped"
        ? visit.skipReason
          ? SKIP_REASON_LABELS[visit.skipReason]
          : "Skipped"
        : visit.status === "missed"
          ? `Missed: ${visit.missedReason ? MISSED_REASON_LABELS[visit.missedReason] : "no reason given"}`
          : null;
    if (label) skips.set(label, (skips.get(label) ?? 0) + 1);
  }
  return {
    stopsDone,
    minutesOnSite: timedStops > 0 ? Math.round(onSiteMs / 60_000) : null,
    timedStops,
    milesPlanned: route ? route.miles : null,
    skips: [...skips.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([label, count]) => ({ label, count })),
  };
}
