// Run by playwright.config.ts's webServer command just before `node server.js`, on the same
// database (DATABASE_URL, or the PGlite folder under DATA_DIR, which only one process may
// open at a time: hence before the server, not from a Playwright global setup, which runs
// after the web server has started). Test data only: refuses to run without the marker the
// browser-test configuration sets, so it never seeds admins into a real database.
import { connect } from "../../db/connection";
import { migrateToLatest } from "../../db/migrator";
import { databaseOptionsFromEnv } from "../../db/options";
import { hashPassword } from "../../app/features/accounts/password.server";
import { seedBillingCustomers } from "./seed-billing-customers";
import { seedCreditNoteCustomers } from "./seed-credit-note-customers";
import { seedCancelCreditCustomers } from "./seed-cancel-credit-customers";
import { seedPausedMonthCustomers } from "./seed-paused-month-customers";
import { seedPlanCustomers } from "./seed-plan-customers";
import { allTestAdmins, TEST_ADMIN_PASSWORD } from "./test-admins";
import { seedTestPlan } from "./test-plans";

if (process.env.E2E_SEED_TEST_ADMINS !== "1") {
  console.error("seed-test-admins: only for the browser tests (E2E_SEED_TEST_ADMINS=1); nothing seeded.");
  process.exit(1);
}

const handle = connect(databaseOptionsFromEnv(process.env));
try {
  await migrateToLatest(handle.db);
  const admins = allTestAdmins();
  // All share one password: one scrypt hash instead of one per account.
  const passwordHash = await hashPassword(TEST_ADMIN_PASSWORD);
  await handle.db.transaction().execute(async (trx) => {
    const existing = new Set(
      (
        await trx
          .selectFrom("users")
          .select("email")
          .where(
            "email",
            "in",
            admins.map((a) => a.email),
          )
          .execute()
      ).map((row) => row.email),
    );
    for (const admin of admins.filter((a) => !existing.has(a.email))) {
      const user = await trx
        .insertInto("users")
        .values({ email: admin.email, password_hash: passwordHash, email_verified_at: new Date() })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx.insertInto("profiles").values({ user_id: user.id, full_name: admin.fullName }).execute();
      await trx.insertInto("user_roles").values({ user_id: user.id, role: "owner" }).execute();
      await trx
        .insertInto("user_totp")
        .values({ user_id: user.id, secret: admin.totpSecret, enabled_at: new Date() })
        .execute();
    }
  });
  // A customer on a plan, with a visit made from it (tests/e2e/test-plans.ts).
  await seedTestPlan(handle.db);
  await seedPlanCustomers(handle.db, admins[0].email);
  // Customers with an open invoice for the billing journeys (tests/e2e/billing-customers.ts).
  await seedBillingCustomers(handle.db);
  // Customers with last month paused in part, billed for it (tests/e2e/paused-month-customers.ts).
  await seedPausedMonthCustomers(handle.db, admins[0].email);
  // Customers with a refunded invoice and its credit note (tests/e2e/credit-note-customers.ts).
  await seedCreditNoteCustomers(handle.db);
  // Customers with this month's plan to cancel with notice (tests/e2e/cancel-credit-customers.ts).
  await seedCancelCreditCustomers(handle.db, admins[0].email);
} finally {
  await handle.close();
}
