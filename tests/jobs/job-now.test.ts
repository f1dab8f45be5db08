import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useAppDatabase } from "../helpers/app-database";
import { runJobNow } from "~/features/jobs/job-now.server";
import type { JobDefinition } from "~/utils/job-queue.server";

/**
 * A script's job run now on the queue (issue 35 item 5, docs/decisions/114): sent, worked, its
 * output or its error read back; a failure reported at once, not retried; a dated run its own slot.
 */
const database = useAppDatabase();
const db = () => database.current.db;

function job(name: string, run: JobDefinition["run"]): JobDefinition {
  return {
    name,
    payload: z.object({ date: z.string().optional(), n: z.number().optional() }).strict(),
    run,
    stately: true,
    concurrency: 1,
    retryLimit: 3,
    retryDelaySeconds: 1,
    expireInSeconds: 30,
  };
}

const rowsOf = async (name: string) =>
  (
    await sql<{ state: string; retry_count: number; data: object; singleton_key: string | null }>`
      select state::text as state, retry_count, data, singleton_key from pgboss.job where name = ${name} order by created_on
    `.execute(db())
  ).rows;

describe("runJobNow", { timeout: 60_000 }, () => {
  it("runs the job once with its payload and returns what it returned", async () => {
    const seen: unknown[] = [];
    const outcome = await runJobNow(
      "test:now-ok",
      { n: 7 },
      {
        db: db(),
        pollSeconds: 0.5,
        jobs: [
          job("test:now-ok", async (payload) => (seen.push(payload), { doubled: (payload as { n: number }).n * 2 })),
        ],
      },
    );
    expect(outcome).toMatchObject({ state: "completed", output: { doubled: 14 }, alreadyQueued: false });
    expect(seen).toEqual([{ n: 7 }]);
    expect(await rowsOf("test:now-ok")).toEqual([
      { state: "completed", retry_count: 0, data: { n: 7 }, singleton_key: null },
    ]);
  });

  it("reports a failure at once with its message, and does not retry it", async () => {
    let runs = 0;
    const outcome = await runJobNow(
      "test:now-fails",
      {},
      {
        db: db(),
        pollSeconds: 0.5,
        jobs: [
          job("test:now-fails", async () => {
            runs += 1;
            throw new Error("the card processor is down");
          }),
        ],
      },
    );
    expect(outcome).toMatchObject({ state: "failed", message: "the card processor is down", alreadyQueued: false });
    expect(runs).toBe(1);
    expect(await rowsOf("test:now-fails")).toEqual([
      { state: "failed", retry_count: 0, data: {}, singleton_key: null },
    ]);
  });

  it("a dated run is its own slot: a job queued for today does not take its place", async () => {
    const seen: unknown[] = [];
    const definition = job("test:now-dated", async (payload) => (seen.push(payload), { ok: true }));
    // Today's job, queued by a server (before this script's worker starts).
    await runJobNow("test:now-dated", {}, { db: db(), pollSeconds: 0.5, jobs: [definition] });
    expect(seen).toEqual([{}]);
    await sql`insert into pgboss.job (name, data, policy) values ('test:now-dated', '{}'::jsonb, 'stately')`.execute(
      db(),
    );
    const outcome = await runJobNow(
      "test:now-dated",
      { date: "2031-03-01" },
      { db: db(), pollSeconds: 0.5, jobs: [definition], singletonKey: "2031-03-01" },
    );
    expect(outcome).toMatchObject({ state: "completed", alreadyQueued: false });
    // Its worker ran both: the queued one of today and the dated one, each once.
    expect(seen).toHaveLength(3);
    expect(seen).toContainEqual({ date: "2031-03-01" });
    const rows = await rowsOf("test:now-dated");
    expect(rows.map((row) => row.singleton_key)).toEqual([null, null, "2031-03-01"]);
  });
});
