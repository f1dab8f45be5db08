import { sql } from "kysely";
import type { Db } from "./db.server";
import { errorFields, log } from "./logger.server";

export type LockedRun<T> = { acquired: true; result: T } | { acquired: false };

/**
 * Runs `work` while this process holds the session-level advisory lock `name`
 * (pg_try_advisory_lock on one pinned connection, released in finally), so that of several
 * machines (or processes) only one does it at a time. When another session holds the lock,
 * nothing runs: `{ acquired: false }`.
 *
 * `work` gets that connection and must run every query on it: with PGlite (one connection) any
 * query on the pool would wait for the connection `work` holds.
 */
export async function withAdvisoryLock<T>(db: Db, name: string, work: (conn: Db) => Promise<T>): Promise<LockedRun<T>> {
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(hashtextextended(${name}, 0)) as locked`.execute(conn);
    if (!rows[0]?.locked) return { acquired: false } as const;
    try {
      return { acquired: true, result: await work(conn) } as const;
    } finally {
      // A connection that broke took its session, and the lock, with it.
      await sql`select pg_advisory_unlock(hashtextextended(${name}, 0))`.execute(conn).catch((error: unknown) => {
        log.warn("advisory_lock.unlock_failed", { lock: name, ...errorFields(error) });
      });
    }
  });
}
