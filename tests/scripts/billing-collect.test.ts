import { describe, expect, it } from "vitest";
import { useScriptDatabase } from "../helpers/script-database";

/**
 * `npm run billing:collect` (docs/decisions/104): the built script against a database of its own
 * (PostgreSQL when configured, else a PGlite folder), with the bundled content's rules (grace days
 * 7) and no Stripe: nothing is charged, and a plan whose invoice failed long enough ago is paused.
 */
const script = useScriptDatabase({ prefix: "billing-collect", unset: ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] });
const collect = (args: string[] = []) => script.run("billing-collect", args);
const COUNTS = /^Charged (\d+) \(paid (\d+), failed (\d+)\); plans paused for payment (\d+)\.$/m;

describe("npm run billing:collect", { timeout: 120_000 }, () => {
  it("pauses the plan of an invoice unpaid 10 days after its failure and prints the counts; a second run pauses nothing", async () => {
    const planId = await script.withDb(async (db) => {
      const customer = await db
        .insertInto("users")
        .values({ email: "script-collect@example.com" })
        .returning("id")
        .executeTakeFirstOrThrow();
      const plan = await db
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
        .returning("id")
        .executeTakeFirstOrThrow();
      const failedAt = new Date(Date.now() - 10 * 86_400_000);
      await db
        .insertInto("invoices")
        .values({
          number: "2026-000001",
          customer_id: customer.id,
          plan_id: plan.id,
          period_month: "2026-01-01",
          status: "open",
          issued_on: "2026-01-01",
          due_on: "2026-01-01",
          total_cents: 8900,
          charge_attempts: 1,
          first_failed_at: failedAt,
          last_failed_at: failedAt,
          last_failure_reason: "Your card was declined.",
        })
        .execute();
      return plan.id;
    });

    // Decision 112: a bad --date exits 2 and pauses nothing; a day before the pause day pauses nothing.
    const refused = await collect(["--date", "next-week"]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain('--date: "next-week" is not a day. Use --date YYYY-MM-DD');
    const early = new Date(Date.now() - 5 * 86_400_000).toLocaleDateString("en-CA", {
      timeZone: "America/Los_Angeles",
    });
    const before = await collect(["--date", early]);
    expect(before.code).toBe(0);
    expect(before.stdout).toContain(`As of business day ${early} `);
    expect(COUNTS.exec(before.stdout)?.slice(1), before.stdout).toEqual(["0", "0", "0", "0"]);
    const untouched = await script.withDb(async (db) => ({
      plan: await db
        .selectFrom("customer_plans")
        .select("payment_hold_from")
        .where("id", "=", planId)
        .executeTakeFirstOrThrow(),
      mail: await db.selectFrom("outbox").select("kind").execute(),
    }));
    expect(untouched).toEqual({ plan: { payment_hold_from: null }, mail: [] });

    const first = await collect();
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(COUNTS.exec(first.stdout)?.slice(1), first.stdout).toEqual(["0", "0", "0", "1"]);
    const state = await script.withDb(async (db) => ({
      plan: await db
        .selectFrom("customer_plans")
        .select(["status", "payment_hold_from"])
        .where("id", "=", planId)
        .executeTakeFirstOrThrow(),
      skipped: await db
        .selectFrom("services")
        .select("skip_reason")
        .where("plan_id", "=", planId)
        .where("status", "=", "skipped")
        .execute(),
      mail: await db.selectFrom("outbox").select("kind").execute(),
    }));
    expect(state.plan.status).toBe("active");
    expect(state.plan.payment_hold_from).not.toBeNull();
    expect(state.skipped.length).toBeGreaterThan(0);
    expect(state.skipped.every((visit) => visit.skip_reason === "payment_overdue")).toBe(true);
    expect(state.mail).toEqual([{ kind: "payment_paused" }]);

    const second = await collect();
    expect(second.code).toBe(0);
    expect(COUNTS.exec(second.stdout)?.slice(1)).toEqual(["0", "0", "0", "0"]);
  });
});
