import type { Kysely } from "kysely";
import { connect, type DatabaseHandle } from "../../db/connection";
import { migrateToLatest } from "../../db/migrator";
import { databaseOptionsFromEnv } from "../../db/options";
import type { Database } from "../../db/schema";
import { getEnv } from "./env.server";
import { errorFields, log } from "./logger.server";
import { getStorage } from "./storage.server";

/** A handle or a transaction: workflows pass their transaction so that rows commit together. */
export type Db = Kysely<Database>;

type State = { handle: DatabaseHandle; ready: Promise<Db> };

// Kept on globalThis so that development rebuilds reuse one PGlite instance (a PGlite folder
// must not be opened twice in one process).
const globalState = globalThis as typeof globalThis & { __database?: State; __testDatabase?: Db };

function start(): State {
  const env = getEnv();
  const handle = connect(databaseOptionsFromEnv({ DATABASE_URL: env.DATABASE_URL, DATA_DIR: env.DATA_DIR }));
  const ready = (async () => {
    const started = Date.now();
    const applied = await migrateToLatest(handle.db);
    log.info("database.ready", { kind: handle.kind, migrationsApplied: applied, ms: Date.now() - started });
    if (env.SEED_DEV_DATA ?? env.NODE_ENV === "development") await seedForDevelopment(handle.db);
    return handle.db;
  })();
  const state: State = { handle, ready };
  ready.catch((error) => {
    log.error("database.failed", errorFields(error));
    // Never keep a rejected start: the next caller (the health check, a visitor) connects and
    // migrates afresh, so a database that comes up after the server needs no restart.
    if (globalState.__database === state) globalState.__database = undefined;
    handle.close().catch(() => undefined);
  });
  return state;
}

/**
 * The development accounts and their data, with before and after photos in the uploads storage.
 * Imported only when seeding is on, so a production server never evaluates db/seed-data.ts
 * (docs/decisions/016).
 */
async function seedForDevelopment(db: Db) {
  const { seedDevelopmentData } = await import("../../db/seed-data");
  if (await seedDevelopmentData(db, { storage: getStorage() })) {
    log.info("database.seeded", { note: "development accounts in README" });
  }
}

/** The migrated database. The first call connects and applies pending migrations. */
export function getDb(): Promise<Db> {
  if (globalState.__testDatabase) return Promise.resolve(globalState.__testDatabase);
  globalState.__database ??= start();
  return globalState.__database.ready;
}

/** Integration tests point the app's models at their own database. */
export function setDatabaseForTests(db: Db | undefined) {
  globalState.__testDatabase = db;
}

export async function closeDatabase() {
  const state = globalState.__database;
  globalState.__database = undefined;
  if (state) await state.handle.close();
}
