import { describe, expect, it } from "vitest";
import { useScriptDatabase } from "../helpers/script-database";

/**
 * `npm run billing:run` (docs/decisions/101): the built script against a database of its own
 * (PostgreSQL when configured, else a PGlite folder), with the bundled content's prices and rules.
 */
const script = useScriptDatabase({ prefix: "billing-run" });
const bill = () => script.run("billing-run");
const COUNTS = /^Month (\d{4}-\d{2}): plans (\d+), invoices made (\d+), plans without a price (\d+) \(/m;

// Each case starts the built script and opens the database in a child process: slow on a busy machine.
describe("npm run billing:run", { timeout: 120_000 }, () => {
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
  });
});
