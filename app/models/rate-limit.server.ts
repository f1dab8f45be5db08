import { sql } from "kysely";
import { getDb } from "~/utils/db.server";

export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterSeconds: number };

/**
 * Counts one attempt against `key` in a fixed window and says whether it is allowed. Kept in
 * PostgreSQL so that the limit holds across every machine of the app.
 */
export async function hitRateLimit(
  key: string,
  options: { limit: number; windowMs: number },
): Promise<RateLimitResult> {
  const db = await getDb();
  const windowSeconds = options.windowMs / 1000;
  // One statement: start a new window when the old one has passed, else count the hit.
  const row = await db
    .insertInto("rate_limits")
    .values({ key, hits: 1, window_started_at: sql<Date>`now()` })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        hits: sql<number>`case when rate_limits.window_started_at <= now() - make_interval(secs => ${windowSeconds}) then 1 else rate_limits.hits + 1 end`,
        window_started_at: sql<Date>`case when rate_limits.window_started_at <= now() - make_interval(secs => ${windowSeconds}) then now() else rate_limits.window_started_at end`,
      }),
    )
    .returning(["hits", "window_started_at"])
    .executeTakeFirstOrThrow();
  const elapsed = Date.now() - new Date(row.window_started_at).getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((options.windowMs - elapsed) / 1000));
  return {
    allowed: row.hits <= options.limit,
    remaining: Math.max(0, options.limit - row.hits),
    retryAfterSeconds,
  };
}

/** Forgets the attempts of `key` (after a successful sign-in, for example). */
export async function resetRateLimit(key: string) {
  const db = await getDb();
  await db.deleteFrom("rate_limits").where("key", "=", key).execute();
}

/**
 * Gives one attempt back to `key`: a sign-in that succeeds should not count against the
 * client's address, while every failed one (also those sent in parallel) still does.
 */
export async function refundRateLimit(key: string) {
  const db = await getDb();
  await db
    .updateTable("rate_limits")
    .set({ hits: sql<number>`hits - 1` })
    .where("key", "=", key)
    .where("hits", ">", 0)
    .execute();
}

/** The hits `key` has in its current window, without counting one (0 when the window has passed). */
export async function peekRateLimit(key: string, windowMs: number): Promise<number> {
  const db = await getDb();
  const row = await db
    .selectFrom("rate_limits")
    .select("hits")
    .where("key", "=", key)
    .where("window_started_at", ">", sql<Date>`now() - make_interval(secs => ${windowMs / 1000})`)
    .executeTakeFirst();
  return row?.hits ?? 0;
}

/** Purge job (app/features/jobs/job-runs.server.ts): windows that closed over a day ago count nothing. */
export async function purgeStaleRateLimits(): Promise<number> {
  const db = await getDb();
  const result = await db
    .deleteFrom("rate_limits")
    .where("window_started_at", "<", new Date(Date.now() - 24 * 60 * 60 * 1000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
