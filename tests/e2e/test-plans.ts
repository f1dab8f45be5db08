import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { bundledDocuments } from "../helpers/bundled-dataset";
import { isoWeekday, serviceDayFor, WEEKDAY_NAMES } from "../../app/features/plans/plan-schedule";
import { addDays, businessToday } from "../../app/features/visits/visit-dates";
import { parseBusinessDateTime } from "../../app/utils/business-time";
import type { PlanWeekday } from "../../db/enums";

/**
 * A customer on a weekly plan with one visit made from it, written into the browser tests'
 * database before the server starts (by tests/e2e/seed-test-admins.ts, as the test admins are):
 * the admin's pages must say which visits come from a plan (tests/e2e/plan-visits.spec.ts).
 * Nothing in the browser tests changes it, so both runs (JavaScript on and off) read it as is.
 */
export const PLAN_CUSTOMER = {
  email: "e2e-plan-customer@example.com",
  fullName: "Paula Planwell",
  planName: "Weekly Swift Service",
};

/** The plan's service day: today if it is a weekday, else the next Monday (business time). */
export function planVisitDay(now = new Date()) {
  // Not a closed day of the bundled content either: the generator would move that visit away.
  const settings = bundledDocuments().find((doc) => doc._id === "siteSettings") as {
    planRules?: { closedDays?: { date: string }[] };
  };
  const closed = new Set((settings.planRules?.closedDays ?? []).map((entry) => entry.date));
  let day = businessToday(now);
  while (isoWeekday(day) > 5) day = addDays(day, 1);
  day = serviceDayFor(day, closed) ?? day;
  return { day, weekday: isoWeekday(day) as PlanWeekday, weekdayName: WEEKDAY_NAMES[isoWeekday(day) as PlanWeekday] };
}

export async function seedTestPlan(db: Kysely<Database>) {
  const existing = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", PLAN_CUSTOMER.email)
    .executeTakeFirst();
  if (existing) return;
  const { day, weekday } = planVisitDay();
  await db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto("users")
      .values({ email: PLAN_CUSTOMER.email, email_verified_at: new Date() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.insertInto("profiles").values({ user_id: user.id, full_name: PLAN_CUSTOMER.fullName }).execute();
    const plan = await trx
      .insertInto("customer_plans")
      .values({
        customer_id: user.id,
        catalogue_plan_id: "e2e-weekly",
        catalogue_plan_name: PLAN_CUSTOMER.planName,
        visits_per_week: 1,
        weekdays: [weekday],
        dog_count: 1,
        yard_size: "medium",
        start_date: day,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("services")
      .values({
        customer_id: user.id,
        service_type: "Weekly Service",
        service_date: parseBusinessDateTime(`${day}T08:00`)!,
        status: "scheduled",
        plan_id: plan.id,
        plan_slot: day,
      })
      // The visit generator may have made this slot's visit already (a second start, say).
      .onConflict((oc) => oc.columns(["plan_id", "plan_slot"]).where("plan_id", "is not", null).doNothing())
      .execute();
  });
}
