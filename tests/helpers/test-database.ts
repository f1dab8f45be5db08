import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { connect, PGLITE_OPTIONS, type DatabaseHandle } from "../../db/connection";
import { migrateToLatest } from "../../db/migrator";

export type TestDatabase = DatabaseHandle & { name: string };

/** The PostgreSQL server the tests should use, if any (CI sets DATABASE_URL). */
export function testServerUrl() {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

/**
 * A fresh, migrated database of its own: a new database on the PostgreSQL server when one is
 * configured (dropped by close), else an in-memory PGlite loaded from the migrated template.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  if (serverUrl) {
    const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const handle = connect({ databaseUrl: url.toString(), poolSize: 4 });
    await migrateToLatest(handle.db);
    return {
      ...handle,
      name,
      close: async () => {
        await handle.close();
        const dropper = new pg.Client({ connectionString: serverUrl });
        await dropper.connect();
        await dropper.query(`drop database if exists "${name}" with (force)`);
        await dropper.end();
      },
    };
  }
  const template = process.env.PGLITE_TEMPLATE;
  const pglite = template
    ? new PGlite({ ...PGLITE_OPTIONS, loadDataDir: new Blob([readFileSync(template)]) })
    : new PGlite(PGLITE_OPTIONS);
  const handle = connect({ pglite });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    name: "pglite",
    close: async () => {
      await handle.close();
    },
  };
}
