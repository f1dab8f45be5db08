import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
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
  /** Without a URL: PGlite persisted in this folder ("memory://" keeps it in memory). */
  dataDir?: string;
  /** An already open PGlite (tests load theirs from a template). */
  pglite?: PGlite;
  poolSize?: number;
};

// bigint columns (sizes, counts) fit comfortably in a JS number here.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export function connect(options: ConnectionOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  let pglite = options.pglite;
  if (!pglite) {
    const dir = options.dataDir ?? ".data/pglite";
    if (!dir.startsWith("memory://")) mkdirSync(path.resolve(dir), { recursive: true });
    pglite = new PGlite(dir.startsWith("memory://") ? undefined : path.resolve(dir));
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: "pglite", close: () => db.destroy() };
}
