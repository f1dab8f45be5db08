import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { useAppDatabase } from "../helpers/app-database";
import { log } from "~/utils/logger.server";
import {
  enqueueJob,
  splitSqlStatements,
  startJobQueue,
  type JobDefinition,
  type JobQueue,
} from "~/utils/job-queue.server";

/**
 * The queue (pg-boss 10.4.2 through the app's Kysely handle, docs/decisions/114) on the test
 * database: PGlite by default, PostgreSQL with TEST_DATABASE_URL. Each test uses its own queue
 * names, so the jobs of one never reach another's workers.
 */
const database = useAppDatabase();
const queues: JobQueue[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (queues.length > 0) await queues.pop()!.stop();
});

const FAST = { pollingIntervalSeconds: 0.5, cronWorkerIntervalSeconds: 1, cronMonitorIntervalSeconds: 1 };

async function start(jobs: JobDefinition[], options: Parameters<typeof startJobQueue>[2] = {}) {
  const queue = await startJobQueue(database.current.db, jobs, { ...FAST, ...options });
  queues.push(queue);
  return queue;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > ms) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Jobs of `name` in pg-boss's job table, by state. */
async function states(name: string) {
  const { rows } = await sql<{ state: string; retry_count: number; output: unknown }>`
    select state::text as state, retry_count, output from pgboss.job where name = ${name} order by created_on
  `.execute(database.current.db);
  return rows;
}

const job = (name: string, run: JobDefinition["run"], extra: Partial<JobDefinition> = {}): JobDefinition => ({
  name,
  payload: z.object({ n: z.number().int() }).strict(),
  run,
  retryLimit: 2,
  retryDelaySeconds: 1,
  concurrency: 1,
  expireInSeconds: 60,
  ...extra,
});

describe("splitSqlStatements", () => {
  it("splits at top-level semicolons only", () => {
    expect(
      splitSqlStatements(`BEGIN; select 'a;b'; -- c;d
      create function f() returns void as $$ begin perform 1; end; $$ language plpgsql; select "x;y" from t;
      COMMIT;`),
    ).toEqual([
      "BEGIN",
      "select 'a;b'",
      "-- c;d\n      create function f() returns void as $$ begin perform 1; end; $$ language plpgsql",
      'select "x;y" from t',
      "COMMIT",
    ]);
    expect(splitSqlStatements("select $1, 'it''s; fine'")).toEqual(["select $1, 'it''s; fine'"]);
  });
});

describe("the job queue", () => {
  it("installs pg-boss's schema on the app's database and runs a job with its payload", async () => {
    const seen: unknown[] = [];
    const queue = await start([job("test-run", async (payload) => void seen.push(payload))]);
    expect(await queue.send("test-run", { n: 7 })).toEqual(expect.any(String));
    await until(
      () => states("test-run"),
      (rows) => rows[0]?.state === "completed",
    );
    expect(seen).toEqual([{ n: 7 }]);
    // The app's own tables are untouched by the queue: its tables live in their own schema.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pgboss.version`.execute(
      database.current.db,
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("parks a job whose payload does not parse at once, logged, and the worker goes on", async () => {
    const warn = vi.spyOn(log, "warn");
    const seen: unknown[] = [];
    const queue = await start([job("test-bad", async (payload) => void seen.push(payload))]);
    await queue.send("test-bad", { n: "seven" });
    await queue.send("test-bad", { n: 8 });
    const rows = await until(
      () => states("test-bad"),
      (list) => list.length === 2 && list.every((row) => row.state === "completed" || row.state === "failed"),
    );
    expect(rows.map((row) => [row.state, row.retry_count])).toEqual([
      ["failed", 0],
      ["completed", 0],
    ]);
    expect(seen).toEqual([{ n: 8 }]);
    expect(warn).toHaveBeenCalledWith(
      "jobs.bad_payload",
      expect.objectContaining({ job: "test-bad", issues: ["n: Expected number, received string"] }),
    );
  });

  it("retries a job that throws with backoff, then parks it as failed with its error", async () => {
    const warn = vi.spyOn(log, "warn");
    const attempts: number[] = [];
    const queue = await start([
      job(
        "test-throws",
        async () => {
          attempts.push(Date.now());
          throw new Error("the gateway is down");
        },
        { retryLimit: 2, retryDelaySeconds: 1 },
      ),
    ]);
    await queue.send("test-throws", { n: 1 });
    const rows = await until(
      () => states("test-throws"),
      (list) => list[0]?.state === "failed",
      30_000,
    );
    expect(attempts).toHaveLength(3);
    expect(rows[0]?.retry_count).toBe(2);
    expect(JSON.stringify(rows[0]?.output)).toContain("the gateway is down");
    // Backoff: each wait at least the delay (1 s), the second about twice the first's base.
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(1_900);
    expect(warn.mock.calls.filter(([event]) => event === "jobs.failed")).toHaveLength(2);
    expect(warn).toHaveBeenCalledWith("jobs.parked", expect.objectContaining({ job: "test-throws", attempt: 3 }));
    // Never again: parked.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(attempts).toHaveLength(3);
  }, 45_000);

  it("runs at most `concurrency` of a job at once in one process", async () => {
    let active = 0;
    let most = 0;
    const queue = await start([
      job(
        "test-lanes",
        async () => {
          active += 1;
          most = Math.max(most, active);
          await new Promise((resolve) => setTimeout(resolve, 300));
          active -= 1;
        },
        { concurrency: 2 },
      ),
    ]);
    for (let n = 0; n < 6; n += 1) await queue.send("test-lanes", { n });
    await until(
      () => states("test-lanes"),
      (rows) => rows.length === 6 && rows.every((row) => row.state === "completed"),
    );
    expect(most).toBe(2);
  });

  it("enqueueJob sends on the running queue, and does nothing without one", async () => {
    enqueueJob("test-enqueue", { n: 1 });
    const seen: unknown[] = [];
    await start([job("test-enqueue", async (payload) => void seen.push(payload))]);
    enqueueJob("test-enqueue", { n: 2 });
    await until(
      async () => seen,
      (list) => list.length === 1,
    );
    expect(seen).toEqual([{ n: 2 }]);
  });
});

describe("two servers on one database", () => {
  it("send each scheduled job once per period, and one of them runs it", async () => {
    const runs: Array<{ server: string; minute: number }> = [];
    const every = (server: string) =>
      job("test-cron", async () => void runs.push({ server, minute: Math.floor(Date.now() / 60_000) }), {
        payload: z.object({}).strict(),
        cron: "* * * * *",
        stately: true,
      });
    const first = Math.floor(Date.now() / 60_000);
    await start([every("a")]);
    await start([every("b")]);
    // Both check the schedules every second for 5 s: each minute's slot is sent once.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const last = Math.floor(Date.now() / 60_000);
    await until(
      () => states("test-cron"),
      (rows) => rows.length > 0 && rows.every((row) => row.state === "completed"),
    );
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs.length).toBeLessThanOrEqual(last - first + 1);
    expect(new Set(runs.map((run) => run.minute)).size).toBe(runs.length);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pgboss.schedule where name = 'test-cron'`.execute(database.current.db);
    expect(rows[0]?.n).toBe(1);
  }, 30_000);

  it("a job whose server died mid-run is expired and retried by the other, once", async () => {
    const seen: string[] = [];
    const definition = job("test-killed", async (_payload, { jobId }) => void seen.push(jobId), {
      expireInSeconds: 1,
      retryDelaySeconds: 1,
    });
    // The server that dies: it takes the job (active) and never finishes it, as a killed process.
    const dying = await start([definition], { work: false, schedule: false });
    const id = await dying.send("test-killed", { n: 1 });
    const [taken] = await dying.boss.fetch("test-killed");
    expect(taken?.id).toBe(id);
    const other = await start([definition], { schedule: false });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // pg-boss's maintenance (every maintenanceIntervalSeconds on some server) expires it.
    await other.boss.maintain();
    const rows = await until(
      () => states("test-killed"),
      (list) => list[0]?.state === "completed",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.retry_count).toBe(1);
    expect(seen).toEqual([id]);
  }, 30_000);
});
