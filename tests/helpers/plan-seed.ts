import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { startPlan } from "../../app/features/plans/plan-changes.server";
import { isoWeekday } from "../../app/features/plans/plan-schedule";
import { businessToday } from "../../app/features/visits/visit-dates";
import { weekdayAhead } from "./plan-days";

/**
 * Customer plans for tests that run on the real clock (route calls, the browser journeys): a
 * weekly plan whose first service day is a weekday at least `daysAhead` days from today
 * (business time), so that its first visit is well outside the change notice. Relative imports:
 * Playwright's seed script loads this too.
 */

export const WEEKLY_PLAN = { _id: "servicePlan.weekly", name: "Weekly Swift Service", visitsPerWeek: 1 } as const;

/** Starts a weekly plan on that weekday for the customer, as an admin would, at `now`. */
export async function startWeeklyPlanAhead(
  db: Kysely<Database>,
  input: { customerId: string; adminId: string; now?: Date; daysAhead?: number; dogCount?: number },
) {
  const now = input.now ?? new Date();
  const startDate = weekdayAhead(businessToday(now), input.daysAhead ?? 3);
  return startPlan(db, {
    customerId: input.customerId,
    cataloguePlan: WEEKLY_PLAN,
    weekdays: [isoWeekday(startDate)],
    dogCount: input.dogCount ?? 1,
    yardSize: "medium",
    startDate,
    notes: null,
    actorId: input.adminId,
    now,
  });
}
