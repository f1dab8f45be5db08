import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Dialect,
  type Driver,
} from "kysely";
import pg from "pg";
import type { Database } from "./schema";

export type DatabaseHandle = {
  db: Kysely<Database>;
  kind: "postgres" | "pglite";
  close: () => Promise<void>;
};

export type ConnectionOptions = {
  /** A postgres:// URL: a `pg` pool is used. */
  databaseUrl?: string;
  /** Without a URL: PGlite persisted in this folder ("memory://" keeps it in memory), loaded on first use. */
  dataDir?: string;
  /** An already open PGlite (tests load theirs from a template). */
  pglite?: PGlite;
  poolSize?: number;
  /** How long a query waits for a connection before failing (PostgreSQL only). */
  connectionTimeoutMs?: number;
};

// bigint columns (sizes, counts) fit comfortably in a JS number here.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
// A `date` column is a calendar day in the business's time zone ("2027-03-02"): read as that
// string, never as a JS Date at the server's local midnight (which shifts it by the UTC offset).
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
const DATE_OID = 1082;
/** PGlite's parsers, the same as pg's above; every `new PGlite` passes them. */
export const PGLITE_OPTIONS = { parsers: { [DATE_OID]: (value: string) => value } };

export function connect(options: ConnectionOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // Without a timeout a request waits forever for a database that does not answer; with
      // one it fails fast (a 503 page) and the pool connects afresh once the database is back.
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    });
    // An idle client whose connection the server closed (restart, failover, a dropped test
    // database) emits 'error' on the pool; unhandled, that would crash the process. The pool
    // replaces the client on the next query, so a log line is enough.
    pool.on("error", (error) => {
      console.error(
        JSON.stringify({
          time: new Date().toISOString(),
          level: "warn",
          event: "database.idle_client_error",
          error: error.message,
        }),
      );
    });
    // pg-pool removes its listener while a client is checked out (Kysely holds one between
    // acquiring it and running the query): a connection lost at that moment emitted 'error'
    // with no listener and killed the process. The query itself still fails, and the pool
    // drops the broken client when it is released.
    pool.on("connect", (client) => {
      client.on("error", (error) => {
        console.error(
          JSON.stringify({
            time: new Date().toISOString(),
            level: "warn",
            event: "database.client_error",
            error: error.message,
          }),
        );
      });
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  const { pglite, dataDir } = options;
  const db = new Kysely<Database>({ dialect: lazyPGliteDialect(async () => pglite ?? (await openPGlite(dataDir))) });
  return { db, kind: "pglite", close: () => db.destroy() };
}

async function openPGlite(dataDir = ".data/pglite"): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  if (dataDir.startsWith("memory://")) return new PGlite(PGLITE_OPTIONS);
  mkdirSync(path.resolve(dataDir), { recursive: true });
  return new PGlite(path.resolve(dataDir), PGLITE_OPTIONS);
}

/**
 * kysely-pglite-dialect's dialect, with PGlite and the dialect imported when the first query
 * runs: a server with DATABASE_URL never loads them (PGlite is 27 MB, and a development
 * dependency: production installs do not hold it). Kysely initialises a driver before its first
 * query, so every call below finds the real driver ready.
 */
function lazyPGliteDialect(open: () => Promise<PGlite>): Dialect {
  let loading: Promise<Driver> | undefined;
  const driver = () =>
    (loading ??= (async () => {
      const { PGliteDialect } = await import("kysely-pglite-dialect");
      const real = new PGliteDialect(await open()).createDriver();
      await real.init();
      return real;
    })());
  return {
    createAdapter: () => new PostgresAdapter(),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createDriver: () => ({
      init: async () => void (await driver()),
      acquireConnection: async () => (await driver()).acquireConnection(),
      beginTransaction: async (connection, settings) => (await driver()).beginTransaction(connection, settings),
      commitTransaction: async (connection) => (await driver()).commitTransaction(connection),
      rollbackTransaction: async (connection) => (await driver()).rollbackTransaction(connection),
      releaseConnection: async (connection) => (await driver()).releaseConnection(connection),
      destroy: async () => {
        if (loading) await (await loading).destroy();
      },
    }),
  };
}
