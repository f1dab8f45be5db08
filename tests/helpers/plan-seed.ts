import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { startPlan } from "../../app/features/plans/plan-changes.server";
import { isoWeekday } from "../../app/features/plans/plan-schedule";
import { businessToday } from "../../app/features/visits/visit-dates";
import type { PlanRules } from "../../app/content/types";
import { createUser } from "./factories";
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

/** Monday 1 March 2027, 10:00 in Las Vegas (PST, UTC-8): the fixed clock of the plan workflow's tests. */
export const PLAN_TEST_MONDAY = new Date("2027-03-01T18:00:00Z");

/**
 * A customer ("Casey Customer") with a weekly Tuesday plan for 2 dogs from Monday 1 March 2027,
 * started by an admin ("Owner") at PLAN_TEST_MONDAY: visits on 2, 9, 16 and 23 March. `rules`:
 * the owner's plan rules (by default the bundled dataset's).
 */
export async function customerWithTuesdayPlan(db: Kysely<Database>, rules?: PlanRules) {
  const admin = await createUser(db, { admin: true, fullName: "Owner" });
  const customer = await createUser(db, { fullName: "Casey Customer" });
  const plan = await startPlan(db, {
    customerId: customer.id,
    cataloguePlan: WEEKLY_PLAN,
    weekdays: [2],
    dogCount: 2,
    yardSize: "medium",
    startDate: "2027-03-01",
    notes: null,
    actorId: admin.id,
    now: PLAN_TEST_MONDAY,
    rules,
  });
  return { admin, customer, plan, visits: await planVisitsOf(db, plan.id) };
}

/** A plan's visits, soonest first, with their business day. */
export async function planVisitsOf(db: Kysely<Database>, planId: string) {
  const rows = await db
    .selectFrom("services")
    .select(["id", "service_date", "status", "skip_reason", "plan_slot", "plan_left_at"])
    .where("plan_id", "=", planId)
    .orderBy("service_date")
    .execute();
  return rows.map((row) => ({ ...row, day: businessToday(row.service_date) }));
}
