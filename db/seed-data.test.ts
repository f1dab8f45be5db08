import { afterAll, beforeAll, expect, it } from "vitest";
import { verifyPassword } from "../app/features/accounts/password.server";
import { createTestDatabase, type TestDatabase } from "../tests/helpers/test-database";
import { DEV_ADMIN_TOTP_SECRET } from "./dev-totp";
import { DEV_ACCOUNTS, seedDevelopmentData } from "./seed-data";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.close());

it("seeds an admin and a customer with services and bookings, once", async () => {
  expect(await seedDevelopmentData(database.db)).toBe(true);
  expect(await seedDevelopmentData(database.db)).toBe(false);
  const users = await database.db.selectFrom("users").selectAll().execute();
  expect(users).toHaveLength(2);
  const admin = users.find((u) => u.email === DEV_ACCOUNTS.admin.email)!;
  expect(await verifyPassword(DEV_ACCOUNTS.admin.password, admin.password_hash)).toBe(true);
  // The stored hashes are the accounts' own passwords (the seed hashes nothing itself).
  const customer = users.find((u) => u.email === DEV_ACCOUNTS.customer.email)!;
  expect(await verifyPassword(DEV_ACCOUNTS.customer.password, customer.password_hash)).toBe(true);
  const roles = await database.db.selectFrom("user_roles").selectAll().execute();
  expect(roles).toEqual([expect.objectContaining({ user_id: admin.id, role: "admin" })]);
  // The admin has two-step on with the published development secret; both addresses are verified.
  const totp = await database.db.selectFrom("user_totp").selectAll().execute();
  expect(totp).toEqual([expect.objectContaining({ user_id: admin.id, secret: DEV_ADMIN_TOTP_SECRET })]);
  expect(totp[0].enabled_at).toBeInstanceOf(Date);
  expect(users.every((u) => u.email_verified_at instanceof Date)).toBe(true);
  const visits = await database.db.selectFrom("services").selectAll().execute();
  expect(visits.length).toBeGreaterThanOrEqual(3);
  const bookings = await database.db.selectFrom("bookings").selectAll().execute();
  expect(bookings.map((b) => b.status).sort()).toEqual(["confirmed", "pending"]);
});
