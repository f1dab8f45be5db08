import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { hashPassword } from "../../app/features/accounts/password.server";
import { startPlan } from "../../app/features/plans/plan-changes.server";
import { isoWeekday } from "../../app/features/plans/plan-schedule";
import { findOpenPlanForCustomer } from "../../app/models/customer-plan.server";
import { businessToday } from "../../app/features/visits/visit-dates";
import { weekdayAhead } from "../helpers/plan-days";
import { WEEKLY_PLAN } from "../helpers/plan-seed";
import { allCancelCreditCustomers, CANCEL_CREDIT_DAYS_AHEAD, CANCEL_CREDIT_PASSWORD } from "./cancel-credit-customers";
import { shiftMonth } from "./paused-month-customers";

/** 10:00 in Las Vegas on that day (the workflow's clock for what happened then). */
const at = (day: string) => new Date(`${day}T18:00:00Z`);

/**
 * The cancel-credit journey's customers (tests/e2e/cancel-credit-customers.ts), through the real
 * workflow on a clock set back: a weekly plan from the first of this month, on the weekday of the
 * first weekday at least two days ahead, started by an admin on the 20th of last month. The test
 * server's own billing run, at its start, bills this month in full; cancelling then gives back the
 * visits after the notice (docs/decisions/115). Idempotent: a customer with a plan is left alone.
 */
export async function seedCancelCreditCustomers(db: Kysely<Database>, adminEmail: string) {
  const admin = await db.selectFrom("users").select("id").where("email", "=", adminEmail).executeTakeFirstOrThrow();
  const today = businessToday();
  const thisMonth = shiftMonth(today, 0);
  const startedOn = `${shiftMonth(today, -1).slice(0, 8)}20`;
  const weekday = isoWeekday(weekdayAhead(today, CANCEL_CREDIT_DAYS_AHEAD));
  const passwordHash = await hashPassword(CANCEL_CREDIT_PASSWORD);
  for (const customer of allCancelCreditCustomers()) {
    let user = await db.selectFrom("users").select("id").where("email", "=", customer.email).executeTakeFirst();
    if (!user) {
      user = await db
        .insertInto("users")
        .values({ email: customer.email, password_hash: passwordHash, email_verified_at: new Date() })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.insertInto("profiles").values({ user_id: user.id, full_name: customer.fullName }).execute();
    }
    if (await findOpenPlanForCustomer(user.id, db)) continue;
    await startPlan(db, {
      customerId: user.id,
      cataloguePlan: WEEKLY_PLAN,
      weekdays: [weekday],
      dogCount: 1,
      yardSize: "medium",
      startDate: thisMonth,
      notes: null,
      actorId: admin.id,
      now: at(startedOn),
    });
  }
}
