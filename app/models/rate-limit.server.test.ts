import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../tests/helpers/app-database";
import { hitRateLimit, refundRateLimit, resetRateLimit } from "./rate-limit.server";

const database = useAppDatabase();

describe("hitRateLimit", () => {
  it("allows up to the limit in a window, then refuses with a retry time", async () => {
    const key = "test:limit";
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit(key, { limit: 3, windowMs: 60_000 }));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3].retryAfterSeconds).toBeGreaterThan(0);
    expect(results[3].retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it("starts a new window once the old one has passed", async () => {
    const key = "test:window";
    await hitRateLimit(key, { limit: 1, windowMs: 60_000 });
    expect((await hitRateLimit(key, { limit: 1, windowMs: 60_000 })).allowed).toBe(false);
    await database.current.db
      .updateTable("rate_limits")
      .set({ window_started_at: new Date(Date.now() - 61_000) })
      .where("key", "=", key)
      .execute();
    expect((await hitRateLimit(key, { limit: 1, windowMs: 60_000 })).allowed).toBe(true);
  });

  it("forgets a key on reset", async () => {
    const key = "test:reset";
    await hitRateLimit(key, { limit: 1, windowMs: 60_000 });
    await resetRateLimit(key);
    expect((await hitRateLimit(key, { limit: 1, windowMs: 60_000 })).allowed).toBe(true);
  });

  it("gives one attempt back on refund, never going below zero", async () => {
    const key = "test:refund";
    const options = { limit: 2, windowMs: 60_000 };
    await hitRateLimit(key, options);
    await hitRateLimit(key, options);
    await refundRateLimit(key);
    expect((await hitRateLimit(key, options)).allowed).toBe(true);
    expect((await hitRateLimit(key, options)).allowed).toBe(false);
    for (let i = 0; i < 5; i++) await refundRateLimit(key);
    const row = await database.current.db
      .selectFrom("rate_limits")
      .select("hits")
      .where("key", "=", key)
      .executeTakeFirstOrThrow();
    expect(row.hits).toBe(0);
    await refundRateLimit("test:never-hit");
  });
});
