import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "../../db/connection";
import { migrateToLatest } from "../../db/migrator";
import { createUser } from "../helpers/factories";
import { createTestDatabase, testServerUrl, type TestDatabase } from "../helpers/test-database";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

/**
 * The real CLI against a database of its own: a fresh PostgreSQL database when the tests have a
 * server, else a PGlite folder (the script creates and migrates it on its first run).
 */
let scriptEnv: NodeJS.ProcessEnv;
let serverDatabase: TestDatabase | undefined;
let dataDir: string | undefined;

beforeAll(async () => {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent" };
  delete base.DATABASE_URL;
  const serverUrl = testServerUrl();
  if (serverUrl) {
    serverDatabase = await createTestDatabase();
    const url = new URL(serverUrl);
    url.pathname = `/${serverDatabase.name}`;
    scriptEnv = { ...base, DATABASE_URL: url.toString() };
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "admin-role-"));
    scriptEnv = { ...base, DATA_DIR: dataDir };
    // Start the folder from the migrated template: an initdb in the child costs seconds.
    const template = process.env.PGLITE_TEMPLATE;
    if (template) {
      const pglite = new PGlite(path.join(dataDir, "pglite"), { loadDataDir: new Blob([readFileSync(template)]) });
      await pglite.waitReady;
      await pglite.close();
    }
  }
});

afterAll(async () => {
  await serverDatabase?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function adminRole(...args: string[]) {
  try {
    const { stdout, stderr } = await run(path.join(root, "node_modules/.bin/tsx"), ["scripts/admin-role.ts", ...args], {
      cwd: root,
      env: scriptEnv,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Opens the script's database for a moment (a PGlite folder cannot be open twice at once). */
async function withScriptDb<T>(work: (db: TestDatabase["db"]) => Promise<T>): Promise<T> {
  if (serverDatabase) return work(serverDatabase.db);
  const handle = connect({ dataDir: path.join(dataDir!, "pglite") });
  try {
    await migrateToLatest(handle.db);
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

const isAdmin = (email: string) =>
  withScriptDb(async (db) => {
    const row = await db
      .selectFrom("user_roles")
      .innerJoin("users", "users.id", "user_roles.user_id")
      .select("user_roles.role")
      .where("users.email", "=", email)
      .where("user_roles.role", "=", "admin")
      .executeTakeFirst();
    return Boolean(row);
  });

// Each case starts tsx and opens the database in a child process: slow on a busy machine.
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

  it("grants (twice is harmless) and revokes the admin role, matching the address in any case", async () => {
    await withScriptDb((db) => createUser(db, { email: "Future.Admin@Example.com" }));
    expect(await isAdmin("Future.Admin@Example.com")).toBe(false);

    const granted = await adminRole("grant", "  future.admin@EXAMPLE.com ");
    expect(granted).toMatchObject({ code: 0 });
    expect(granted.stdout).toContain("Future.Admin@Example.com is now an admin.");
    expect(await isAdmin("Future.Admin@Example.com")).toBe(true);
    expect((await adminRole("grant", "future.admin@example.com")).code).toBe(0);

    const revoked = await adminRole("revoke", "future.admin@example.com");
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain("is no longer an admin.");
    expect(await isAdmin("Future.Admin@Example.com")).toBe(false);
  });
});
