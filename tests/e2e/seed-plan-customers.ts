import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { hashPassword } from "../../app/features/accounts/password.server";
import { findOpenPlanForCustomer } from "../../app/models/customer-plan.server";
import { startWeeklyPlanAhead } from "../helpers/plan-seed";
import { allPlanCustomers, PLAN_CUSTOMER_PASSWORD, PLAN_DAYS_AHEAD, PLAN_DOGS } from "./plan-customers";

/**
 * The "Your Plan" journeys' customers (tests/e2e/plan-customers.ts), each with a weekly plan
 * started now through the plan workflow, as an admin would start it. Called by
 * seed-test-admins.ts, after the admins exist (one of them starts the plans).
 */
export async function seedPlanCustomers(db: Kysely<Database>, adminEmail: string) {
  const admin = await db.selectFrom("users").select("id").where("email", "=", adminEmail).executeTakeFirstOrThrow();
  const passwordHash = await hashPassword(PLAN_CUSTOMER_PASSWORD);
  for (const customer of allPlanCustomers()) {
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
    await startWeeklyPlanAhead(db, {
      customerId: user.id,
      adminId: admin.id,
      daysAhead: PLAN_DAYS_AHEAD,
      dogCount: PLAN_DOGS,
    });
  }
}
