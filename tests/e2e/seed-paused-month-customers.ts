import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { hashPassword } from "../../app/features/accounts/password.server";
import { runBilling } from "../../app/features/billing/billing-run.server";
import { pausePlan, startPlan } from "../../app/features/plans/plan-changes.server";
import { findOpenPlanForCustomer } from "../../app/models/customer-plan.server";
import { businessToday } from "../../app/features/visits/visit-dates";
import { WEEKLY_PLAN } from "../helpers/plan-seed";
import { allPausedMonthCustomers, PAUSED_MONTH_PASSWORD, shiftMonth } from "./paused-month-customers";

/** 10:00 in Las Vegas on that day (the workflow's clock for what happened then). */
const at = (day: string) => new Date(`${day}T18:00:00Z`);

/**
 * The paused-month journey's customers (tests/e2e/paused-month-customers.ts), through the real
 * workflow on a clock set back: a weekly Tuesday plan from the first of last month, started by an
 * admin on the 20th of the month before; paused for last month's first two weeks on the 21st (with
 * notice); billed for last month by the billing run on its first. The test server's own billing
 * run, at its start, then bills this month with the pause's credit. Idempotent: a customer with a
 * plan is left alone.
 */
export async function seedPausedMonthCustomers(db: Kysely<Database>, adminEmail: string) {
  const admin = await db.selectFrom("users").select("id").where("email", "=", adminEmail).executeTakeFirstOrThrow();
  const today = businessToday();
  const lastMonth = shiftMonth(today, -1);
  const before = shiftMonth(today, -2);
  const startedOn = `${before.slice(0, 8)}20`;
  const pausedOn = `${before.slice(0, 8)}21`;
  const passwordHash = await hashPassword(PAUSED_MONTH_PASSWORD);
  let seeded = 0;
  for (const customer of allPausedMonthCustomers()) {
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
    const plan = await startPlan(db, {
      customerId: user.id,
      cataloguePlan: WEEKLY_PLAN,
      weekdays: [2],
      dogCount: 1,
      yardSize: "medium",
      startDate: lastMonth,
      notes: null,
      actorId: admin.id,
      now: at(startedOn),
    });
    await pausePlan(db, {
      planId: plan.id,
      customerId: user.id,
      actor: { id: admin.id, isAdmin: true },
      now: at(pausedOn),
      from: lastMonth,
      until: `${lastMonth.slice(0, 8)}14`,
    });
    // The database stamps a visit's history with its own clock; the pause was made on the 21st.
    // (history is never edited by the app: its column is read-only in the schema's types).
    await sql`update service_events set created_at = ${at(pausedOn)}
      where to_status = 'skipped' and service_id in (select id from services where plan_id = ${plan.id})`.execute(db);
    seeded += 1;
  }
  // Last month's invoice, as the billing run made it on its first (only these plans had begun).
  if (seeded > 0) await runBilling({ db, now: at(lastMonth), stripeConfigured: false });
}
