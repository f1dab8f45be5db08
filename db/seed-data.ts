import type { Kysely } from "kysely";
import { DEV_ADMIN_TOTP_SECRET } from "./dev-totp";
import type { Database } from "./schema";

/**
 * Development accounts; the README prints these. Never seeded in production. Each carries its
 * password's hash, made once with app/features/accounts/password.server.ts (hashPassword), so
 * that db/ needs nothing of the app (docs/decisions/016); db/seed-data.test.ts signs in with them.
 */
export const DEV_ACCOUNTS = {
  admin: {
    email: "admin@example.com",
    password: "admin-password",
    passwordHash:
      "scrypt$32768$8$1$NZ_K2Fq-iRiU_FVqnR7_Nw$SZ6dSvjNCF1RFQOKEc1VbyRnuQGIUBDqsnyFykn6uLT-XXe_fawg2s_3rsulUwNJtSAUZUpkqzCT1-8qC0cNIQ",
    fullName: "Avery Admin",
  },
  customer: {
    email: "customer@example.com",
    password: "customer-password",
    passwordHash:
      "scrypt$32768$8$1$vTO-zU9pGsiGeyovSYQAWQ$Aaz_IC9PsKm2mjb4Ka21lJ6WR44bqJaUgFOuB0WVxOY9xinbk3vDcpnH5dfF5Z_iVPAXm62y-UCQuaq69-r2Hw",
    fullName: "Casey Customer",
  },
} as const;

const day = 24 * 60 * 60 * 1000;

/** Idempotent: does nothing when the development admin already exists. */
export async function seedDevelopmentData(db: Kysely<Database>): Promise<boolean> {
  const existing = await db
    .selectFrom("users")
    .select("id")
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", DEV_ACCOUNTS.admin.email))
    .executeTakeFirst();
  if (existing) return false;

  await db.transaction().execute(async (trx) => {
    const ids: Record<keyof typeof DEV_ACCOUNTS, string> = { admin: "", customer: "" };
    for (const key of ["admin", "customer"] as const) {
      const account = DEV_ACCOUNTS[key];
      const user = await trx
        .insertInto("users")
        .values({
          email: account.email,
          password_hash: account.passwordHash,
          email_verified_at: new Date(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx.insertInto("profiles").values({ user_id: user.id, full_name: account.fullName }).execute();
      ids[key] = user.id;
    }
    await trx.insertInto("user_roles").values({ user_id: ids.admin, role: "admin" }).execute();
    // Admins must use two-step sign-in; the development admin's secret is a published constant.
    await trx
      .insertInto("user_totp")
      .values({ user_id: ids.admin, secret: DEV_ADMIN_TOTP_SECRET, enabled_at: new Date() })
      .execute();

    const now = Date.now();
    await trx
      .insertInto("services")
      .values([
        {
          customer_id: ids.customer,
          service_type: "Weekly Service",
          service_date: new Date(now - 14 * day),
          status: "completed",
          notes: "Gate code 1234. Two dogs.",
          created_by: ids.admin,
        },
        {
          customer_id: ids.customer,
          service_type: "Weekly Service",
          service_date: new Date(now - 7 * day),
          status: "completed",
          notes: null,
          created_by: ids.admin,
        },
        {
          customer_id: ids.customer,
          service_type: "Sanitize & Deodorize",
          service_date: new Date(now - 6 * day),
          status: "completed",
          notes: "Quarterly deep clean.",
          created_by: ids.admin,
        },
        {
          customer_id: ids.customer,
          service_type: "Weekly Service",
          service_date: new Date(now + 1 * day),
          status: "scheduled",
          notes: null,
          created_by: ids.admin,
        },
      ])
      .execute();
    await trx
      .insertInto("bookings")
      .values([
        {
          customer_id: ids.customer,
          service_type: "Weekly Service",
          booking_date: new Date(now + 1 * day),
          status: "confirmed",
          source: "admin",
        },
        {
          customer_id: ids.customer,
          service_type: "Trash Bin Clean",
          booking_date: new Date(now + 9 * day),
          status: "pending",
          source: "website",
        },
      ])
      .execute();
  });
  return true;
}
