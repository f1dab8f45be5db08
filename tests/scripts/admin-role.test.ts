import { describe, expect, it } from "vitest";
import { createUser } from "../helpers/factories";
import { useScriptDatabase } from "../helpers/script-database";

/** The real CLI against a database of its own. */
const script = useScriptDatabase({ prefix: "admin-role" });
const adminRole = (...args: string[]) => script.run("admin-role", args);
const withScriptDb = script.withDb;

const isOwner = (email: string) =>
  withScriptDb(async (db) => {
    const row = await db
      .selectFrom("user_roles")
      .innerJoin("users", "users.id", "user_roles.user_id")
      .select("user_roles.role")
      .where("users.email", "=", email)
      .where("user_roles.role", "=", "owner")
      .executeTakeFirst();
    return Boolean(row);
  });

// Each case starts the built script and opens the database in a child process: slow on a busy machine.
describe("npm run admin:grant / admin:revoke", { timeout: 120_000 }, () => {
  it("explains its usage", async () => {
    const result = await adminRole("promote", "someone@example.com");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: npm run admin:grant -- someone@example.com");
  });

  it("refuses an address without an account", async () => {
    const result = await adminRole("grant", "nobody@example.com");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No account uses nobody@example.com");
  });

  it("grants the owner role (twice is harmless; an office account becomes owner) and revokes it, matching the address in any case", async () => {
    await withScriptDb((db) => createUser(db, { email: "Future.Admin@Example.com" }));
    expect(await isOwner("Future.Admin@Example.com")).toBe(false);

    const granted = await adminRole("grant", "  future.admin@EXAMPLE.com ");
    expect(granted).toMatchObject({ code: 0 });
    expect(granted.stdout).toContain("Future.Admin@Example.com is now an owner.");
    expect(await isOwner("Future.Admin@Example.com")).toBe(true);
    expect((await adminRole("grant", "future.admin@example.com")).code).toBe(0);
    // One role per staff member (decision 123): granting an office account makes it owner.
    await withScriptDb((db) =>
      db.updateTable("user_roles").set({ role: "office" }).where("role", "=", "owner").execute(),
    );
    expect(await isOwner("Future.Admin@Example.com")).toBe(false);
    expect((await adminRole("grant", "future.admin@example.com")).code).toBe(0);
    expect(await isOwner("Future.Admin@Example.com")).toBe(true);

    const revoked = await adminRole("revoke", "future.admin@example.com");
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain("is no longer staff.");
    expect(await isOwner("Future.Admin@Example.com")).toBe(false);
  });
});
