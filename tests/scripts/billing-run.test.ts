import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { clearMoney } from "../helpers/ledger";
import { useScriptDatabase } from "../helpers/script-database";

/**
 * `npm run billing:run` (docs/decisions/101): the built script against a database of its own
 * (PostgreSQL when configured, else a PGlite folder), with the bundled content's prices and rules.
 */
const script = useScriptDatabase({ prefix: "billing-run" });
const bill = (args: string[] = []) => script.run("billing-run", args);
const COUNTS = /^Month (\d{4}-\d{2}): plans (\d+), invoices made (\d+), plans without a price (\d+) \(/m;

// Each case starts the built script and opens the database in a child process: slow on a busy machine.
describe("npm run billing:run", { timeout: 120_000 }, () => {
  // Decision 112: a bad --date exits 2, says why, and does nothing (no plan is billed).
  it("refuses an impossible --date, stores nothing, and then bills the day it is given", async () => {
    await script.withDb(async (db) => {
      const customer = await db
        .insertInto("users")
        .values({ email: "script-billing-dated@example.com" })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("customer_plans")
        .values({
          customer_id: customer.id,
          catalogue_plan_id: "servicePlan.weekly",
          catalogue_plan_name: "Weekly Swift Service",
          visits_per_week: 1,
          weekdays: [2],
          dog_count: 1,
          yard_size: "medium",
          start_date: "2026-01-01",
        })
        .execute();
    });
    const refused = await bill(["--date", "2031-02-29"]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain('--date: "2031-02-29" is not a day. Use --date YYYY-MM-DD');
    expect(await script.withDb((db) => db.selectFrom("invoices").select("id").execute())).toEqual([]);

    // The business day given: a month of its own, far from today's, numbered in its own year.
    const dated = await bill(["--date", "2031-03-01"]);
    expect(dated.stderr).toBe("");
    expect(dated.code).toBe(0);
    expect(dated.stdout).toMatch(/^As of business day 2031-03-01 \(America\/Los_Angeles\)\.$/m);
    expect(COUNTS.exec(dated.stdout)?.slice(1), dated.stdout).toEqual(["2031-03", "1", "1", "0"]);
    const invoices = await script.withDb((db) =>
      db.selectFrom("invoices").select(["number", "period_month", "issued_on"]).execute(),
    );
    expect(invoices.map((row) => [row.number, String(row.period_month), String(row.issued_on)])).toEqual([
      ["2031-000001", "2031-03-01", "2031-03-01"],
    ]);
    await script.withDb(async (db) => {
      await db.deleteFrom("outbox").execute();
      // Invoices are ledger entries (docs/decisions/113): emptied with the ledger.
      await clearMoney(db);
      await db.deleteFrom("customer_plans").execute();
      await db.deleteFrom("users").execute();
    });
  });

  it("bills an active plan this month and prints the counts; a second run bills nothing", async () => {
    const customerId = await script.withDb(async (db) => {
      const customer = await db
        .insertInto("users")
        .values({ email: "script-billing@example.com" })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("customer_plans")
        .values({
          customer_id: customer.id,
          catalogue_plan_id: "servicePlan.weekly",
          catalogue_plan_name: "Weekly Swift Service",
          visits_per_week: 1,
          weekdays: [2],
          dog_count: 1,
          yard_size: "medium",
          start_date: "2026-01-01",
        })
        .execute();
      return customer.id;
    });

    const first = await bill();
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const counts = COUNTS.exec(first.stdout);
    expect(counts, first.stdout).toBeTruthy();
    expect(counts!.slice(2)).toEqual(["1", "1", "0"]);
    const invoices = await script.withDb((db) =>
      db.selectFrom("invoices").select(["customer_id", "status", "total_cents"]).execute(),
    );
    // The bundled catalogue: the weekly plan is $89 a month.
    expect(invoices).toEqual([{ customer_id: customerId, status: "open", total_cents: 8900 }]);

    const second = await bill();
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/plans 1, invoices made 0, plans without a price 0/);
    expect(await script.withDb((db) => db.selectFrom("invoices").select("id").execute())).toHaveLength(1);

    // Both ran as the queue's billing:run job (issue 35 item 5): completed, not retried, their
    // counts kept as the job's output.
    const jobs = await script.withDb(async (db) => {
      const { rows } = await sql<{ state: string; retry_limit: number; output: { invoices: number } }>`
        select state::text as state, retry_limit, output from pgboss.job
        where name = 'billing:run' and data->>'date' is null
      `.execute(db);
      return rows;
    });
    expect(jobs.map((job) => [job.state, job.retry_limit, job.output.invoices]).sort()).toEqual([
      ["completed", 0, 0],
      ["completed", 0, 1],
    ]);
  });

  it("runs the billing:run job already queued (a server's) rather than a second one", async () => {
    const billingJobs = () =>
      script.withDb(async (db) => {
        const { rows } = await sql<{ id: string; state: string }>`
          select id, state::text as state from pgboss.job where name = 'billing:run' order by created_on
        `.execute(db);
        return rows;
      });
    const before = await billingJobs();
    const jobId = await script.withDb(async (db) => {
      // What a server's round leaves queued when its worker is busy or down: a job, no date.
      const { rows } = await sql<{ id: string }>`
        insert into pgboss.job (name, data, policy) values ('billing:run', '{}'::jsonb, 'stately') returning id
      `.execute(db);
      return rows[0].id;
    });
    const run = await bill();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("A billing:run job was already queued: it ran, not a second one.");
    expect(COUNTS.exec(run.stdout), run.stdout).toBeTruthy();
    // That job ran, and no other was made.
    expect(await billingJobs()).toEqual([...before, { id: jobId, state: "completed" }]);
  });
});
