import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { connect } from "../../db/connection";
import { PLAN_VISITS_LOCK } from "~/features/plans/visit-generator.server";
import { useScriptDatabase } from "../helpers/script-database";

/**
 * `npm run visits:generate` (docs/decisions/091): the built script against a database of its own
 * (PostgreSQL when configured, else a PGlite folder), with the bundled content's plan rules.
 */
const script = useScriptDatabase({ prefix: "visits-generate" });
const generate = (args: string[] = []) => script.run("visits-generate", args);
const COUNTS = /^Plans: (\d+), visits made: (\d+), moved off closed days: (\d+), cancelled \(no open day\): (\d+) \(/m;

// Each case starts the built script and opens the database in a child process: slow on a busy machine.
describe("npm run visits:generate", { timeout: 120_000 }, () => {
  // Decision 112: a bad --date exits 2, says why, and makes nothing; a good one acts as that day.
  it("refuses a --date that is not a day, makes nothing, then makes the visits as of the day given", async () => {
    const planId = await script.withDb(async (db) => {
      const customer = await db
        .insertInto("users")
        .values({ email: "script-plan-dated@example.com" })
        .returning("id")
        .executeTakeFirstOrThrow();
      const plan = await db
        .insertInto("customer_plans")
        .values({
          customer_id: customer.id,
          catalogue_plan_id: "weekly-swift-service",
          catalogue_plan_name: "Weekly Swift Service",
          visits_per_week: 1,
          weekdays: [2],
          dog_count: 1,
          yard_size: "medium",
          start_date: "2031-01-01",
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return plan.id;
    });
    const refused = await generate(["--date=2031-1-7"]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain('--date: "2031-1-7" is not a day. Use --date YYYY-MM-DD');
    expect(await script.withDb((db) => db.selectFrom("services").select("id").execute())).toEqual([]);

    const dated = await generate(["--date", "2031-01-07"]);
    expect(dated.stderr).toBe("");
    expect(dated.code).toBe(0);
    expect(dated.stdout).toMatch(/^As of business day 2031-01-07 /m);
    const slots = await script.withDb((db) =>
      db.selectFrom("services").select("plan_slot").where("plan_id", "=", planId).orderBy("plan_slot").execute(),
    );
    // Tuesdays from the day given (a Tuesday) to its horizon.
    expect(slots.length).toBeGreaterThanOrEqual(4);
    expect(String(slots[0].plan_slot)).toBe("2031-01-07");
    await script.withDb(async (db) => {
      await db.deleteFrom("services").execute();
      await db.deleteFrom("customer_plans").execute();
      await db.deleteFrom("users").execute();
    });
  });

  it("makes a plan's visits for the horizon and prints the counts; a second run makes none", async () => {
    const planId = await script.withDb(async (db) => {
      const customer = await db
        .insertInto("users")
        .values({ email: "script-plan@example.com" })
        .returning("id")
        .executeTakeFirstOrThrow();
      const plan = await db
        .insertInto("customer_plans")
        .values({
          customer_id: customer.id,
          catalogue_plan_id: "weekly-swift-service",
          catalogue_plan_name: "Weekly Swift Service",
          visits_per_week: 2,
          weekdays: [2, 4],
          dog_count: 1,
          yard_size: "medium",
          start_date: "2026-01-01",
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return plan.id;
    });

    const first = await generate();
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const counts = COUNTS.exec(first.stdout);
    expect(counts, first.stdout).toBeTruthy();
    const [plans, made] = [Number(counts![1]), Number(counts![2])];
    expect(plans).toBe(1);
    // Two weekdays over a 28-day horizon: 8 or 9 slots, less any whose start has passed today.
    expect(made).toBeGreaterThanOrEqual(7);
    expect(made).toBeLessThanOrEqual(9);
    const visits = await script.withDb((db) =>
      db.selectFrom("services").select(["status", "plan_id"]).where("plan_id", "=", planId).execute(),
    );
    expect(visits).toHaveLength(made);
    expect(visits.every((visit) => visit.status === "scheduled")).toBe(true);

    const second = await generate();
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Plans: 1, visits made: 0, moved off closed days: 0, cancelled \(no open day\): 0/m);
    expect(await script.withDb((db) => db.selectFrom("services").select("id").execute())).toHaveLength(made);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL && !process.env.DATABASE_URL)(
    "does nothing, and says so, while another generator holds the lock (PostgreSQL)",
    async () => {
      const handle = connect({ databaseUrl: script.env.DATABASE_URL!, poolSize: 1 });
      try {
        const result = await handle.db.connection().execute(async (conn) => {
          await sql`select pg_advisory_lock(hashtextextended(${PLAN_VISITS_LOCK}, 0))`.execute(conn);
          try {
            return await generate();
          } finally {
            await sql`select pg_advisory_unlock(hashtextextended(${PLAN_VISITS_LOCK}, 0))`.execute(conn);
          }
        });
        expect(result.code).toBe(0);
        expect(result.stdout).toContain("Another generator is running (it holds the lock): nothing done.");
        expect(result.stdout).not.toMatch(COUNTS);
      } finally {
        await handle.close();
      }
    },
  );
});
