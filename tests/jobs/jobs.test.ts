import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { ADD_ONS, CATALOGUE, createPlan, MAIL_CONTEXT, RULES } from "../helpers/billing-fixtures";
import { runBilling } from "~/features/billing/billing-run.server";
import { buildJobs, JOB_NAMES } from "~/features/jobs/jobs.server";
import { generatePlanVisits } from "~/features/plans/visit-generator.server";
import { startJobQueue, type JobDefinition, type JobQueue } from "~/utils/job-queue.server";

/**
 * The app's jobs on the queue (docs/decisions/114): their payloads, the hourly round's chain, and
 * a run killed midway that the queue retries without a duplicate visit, invoice or e-mail.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const queues: JobQueue[] = [];
afterEach(async () => {
  while (queues.length > 0) await queues.pop()!.stop();
});

/** The jobs with a test's clock on pg-boss: quick retries and expiry. */
const quick = (jobs: JobDefinition[], extra: Partial<JobDefinition> = {}) =>
  jobs.map((job) => ({ ...job, retryDelaySeconds: 1, expireInSeconds: 1, ...extra }));

async function start(jobs: JobDefinition[], options: Parameters<typeof startJobQueue>[2] = {}) {
  const queue = await startJobQueue(db(), jobs, { pollingIntervalSeconds: 0.5, schedule: false, ...options });
  queues.push(queue);
  return queue;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > ms) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Jobs of `name` sent since `since` (the tests of this file share one database). */
async function jobsOf(name: string, since: Date) {
  const { rows } = await sql<{ id: string; state: string; retry_count: number }>`
    select id, state::text as state, retry_count from pgboss.job
    where name = ${name} and created_on >= ${since} order by created_on
  `.execute(db());
  return rows;
}

describe("the job list", () => {
  it("names every job; the round's payload takes a business day or nothing, and nothing else", () => {
    const jobs = buildJobs({ outbox: true });
    expect(jobs.map((job) => [job.name, job.cron ?? null])).toEqual([
      [JOB_NAMES.visits, "0 * * * *"],
      [JOB_NAMES.billing, null],
      [JOB_NAMES.collect, null],
      [JOB_NAMES.purges, "50 * * * *"],
      [JOB_NAMES.reports, "30 2 * * *"],
      [JOB_NAMES.routes, "20 4 * * *"],
      [JOB_NAMES.outboxPrune, "40 * * * *"],
      [JOB_NAMES.outboxDrain, "* * * * *"],
    ]);
    // Without SMTP or Twilio there is nothing to drain, but the outbox is still pruned.
    expect(buildJobs({ outbox: false }).map((job) => job.name)).not.toContain(JOB_NAMES.outboxDrain);
    const round = jobs[0]!.payload;
    expect(round.safeParse({}).success).toBe(true);
    expect(round.safeParse({ date: "2027-03-01", round: true }).success).toBe(true);
    for (const bad of [{ date: "2027-02-30" }, { date: "tomorrow" }, { date: 20270301 }, { day: "2027-03-01" }, null]) {
      expect(round.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    for (const job of jobs) {
      expect(job.retryLimit).toBeGreaterThanOrEqual(1);
      expect(job.concurrency).toBe(1);
      expect(job.stately).toBe(true);
    }
  });
});

describe("the hourly round", () => {
  it("runs the generator, then the billing run, then the collection, each as of the payload's day", async () => {
    const calls: Array<[string, string]> = [];
    const day = (now: Date) => now.toISOString();
    const queue = await start(
      quick(
        buildJobs({
          generate: async ({ now }) => (
            calls.push(["generate", day(now)]),
            { ran: true, plans: 0, inserted: 0, moved: 0, cancelled: 0 }
          ),
          bill: async ({ now }) => (
            calls.push(["bill", day(now)]),
            { ran: true, period: "2027-03-01", plans: 0, invoices: 0, unpriced: 0, longestTransactionMs: 0 }
          ),
          collect: async ({ now }) => (
            calls.push(["collect", day(now)]),
            { ran: true, charged: 0, succeeded: 0, failed: 0, paused: 0, budgetSpent: false }
          ),
        }),
      ),
    );
    await queue.send(JOB_NAMES.visits, { date: "2027-03-01", round: true });
    await until(
      async () => calls,
      (list) => list.length === 3,
    );
    // 2027-03-01 00:00 in Las Vegas (PST).
    expect(calls).toEqual([
      ["generate", "2027-03-01T08:00:00.000Z"],
      ["bill", "2027-03-01T08:00:00.000Z"],
      ["collect", "2027-03-01T08:00:00.000Z"],
    ]);
    // A job sent alone (the scripts' way, or an operator's) is that job only.
    await queue.send(JOB_NAMES.billing, {});
    await until(
      async () => calls,
      (list) => list.length === 4,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(calls.map(([name]) => name)).toEqual(["generate", "bill", "collect", "bill"]);
  });

  it("bills after the generator's last failed attempt, not after one that is retried", async () => {
    const since = new Date();
    const calls: string[] = [];
    const queue = await start(
      quick(
        buildJobs({
          generate: async () => {
            calls.push("generate");
            throw new Error("connection terminated");
          },
          bill: async () => (
            calls.push("bill"),
            { ran: true, period: "2027-03-01", plans: 0, invoices: 0, unpriced: 0, longestTransactionMs: 0 }
          ),
          collect: async () => (
            calls.push("collect"),
            { ran: true, charged: 0, succeeded: 0, failed: 0, paused: 0, budgetSpent: false }
          ),
        }),
        { retryLimit: 1, expireInSeconds: 60 },
      ),
    );
    await queue.send(JOB_NAMES.visits, { round: true });
    await until(
      async () => calls,
      (list) => list.includes("collect"),
    );
    expect(calls).toEqual(["generate", "generate", "bill", "collect"]);
    expect((await jobsOf(JOB_NAMES.visits, since)).map((row) => row.state)).toEqual(["failed"]);
  });
});

describe("a job killed midway is retried without a duplicate", () => {
  /**
   * The server that dies: it takes the job (pg-boss marks it active) and does part of the work
   * (the first batch), then is gone: no completion, its connection (and the workflow's lock)
   * dropped. Another server's maintenance expires the job, and its retry runs the whole job.
   */
  async function killMidway(name: string, jobs: JobDefinition[], partial: () => Promise<unknown>) {
    const since = new Date();
    const dying = await start(jobs, { work: false });
    const id = await dying.send(name, { date: "2027-03-01" });
    const [taken] = await dying.boss.fetch(name);
    expect(taken?.id).toBe(id);
    await partial();
    await dying.stop();
    const other = await start(jobs);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await other.boss.maintain();
    const rows = await until(
      () => jobsOf(name, since),
      (list) => list[0]?.state === "completed",
    );
    expect(rows.map((row) => [row.id, row.state, row.retry_count])).toEqual([[id, "completed", 1]]);
  }

  /** Stops after the first batch, as a process that died there. */
  const firstBatchOnly = () => {
    const controller = new AbortController();
    return { signal: controller.signal, betweenBatches: async () => controller.abort() };
  };

  it("visits:generate makes each plan's visits once", async () => {
    for (let i = 0; i < 4; i += 1) await createPlan({ weekdays: [2], start_date: "2027-03-01" }, db());
    const now = new Date("2027-03-01T08:00:00Z");
    const generate: typeof generatePlanVisits = (options) => generatePlanVisits({ ...options, batchSize: 1 });
    const jobs = quick(buildJobs({ generate }));
    let partial = 0;
    await killMidway(JOB_NAMES.visits, jobs, async () => {
      partial = (await generatePlanVisits({ now, batchSize: 1, ...firstBatchOnly() })).inserted;
    });
    const counts = await sql<{ visits: number; slots: number; plans: number }>`
      select count(*)::int as visits, count(distinct (plan_id, plan_slot))::int as slots,
             count(distinct plan_id)::int as plans
      from services where plan_id is not null
    `.execute(db());
    const { visits, slots, plans } = counts.rows[0]!;
    expect(partial).toBeGreaterThan(0);
    expect(visits).toBeGreaterThan(partial);
    expect(visits).toBe(slots);
    expect(plans).toBe(4);
    // Nothing was left to make: the retry made the rest, once.
    expect((await generatePlanVisits({ now })).inserted).toBe(0);
  }, 60_000);

  it("billing:run makes one invoice (and one invoice e-mail) per plan", async () => {
    // The visits test's plans (this file's one database) are billed too: counted apart.
    const before = await db().selectFrom("customer_plans").select("id").execute();
    for (let i = 0; i < 4; i += 1) await createPlan({ weekdays: [1, 4], start_date: "2027-01-04" }, db());
    const fixtures = {
      rules: RULES,
      catalogue: CATALOGUE,
      addOns: ADD_ONS,
      mailContext: MAIL_CONTEXT,
      stripeConfigured: false,
      batchSize: 1,
    };
    const bill: typeof runBilling = (options) => runBilling({ ...fixtures, ...options });
    const jobs = quick(buildJobs({ bill }));
    let partial = 0;
    await killMidway(JOB_NAMES.billing, jobs, async () => {
      partial = (await runBilling({ ...fixtures, now: new Date("2027-03-01T08:00:00Z"), ...firstBatchOnly() }))
        .invoices;
    });
    const invoices = await db().selectFrom("invoices").select(["id", "plan_id", "number"]).execute();
    expect(partial).toBe(1);
    const plans = before.length + 4;
    expect(invoices).toHaveLength(plans);
    expect(new Set(invoices.map((row) => row.plan_id)).size).toBe(plans);
    const mails = await db().selectFrom("outbox").select("related_id").where("kind", "=", "invoice_issued").execute();
    expect(mails).toHaveLength(plans);
    expect(new Set(mails.map((row) => row.related_id))).toEqual(new Set(invoices.map((row) => row.id)));
  }, 60_000);
});
