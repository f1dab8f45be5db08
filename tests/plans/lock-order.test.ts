import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testServerUrl, type TestDatabase } from "../helpers/test-database";
import { customerWithTuesdayPlan, PLAN_TEST_MONDAY } from "../helpers/plan-seed";
import { holdPlanForPayment, pausePlan, PlanChangeError, skipVisit } from "~/features/plans/plan-changes.server";

/**
 * One lock order everywhere (issue 34 item 10, docs/decisions/112): the customer plan, then its
 * visits. A customer's skip used to lock the visit and then the plan, while a pause (and a
 * payment's hold or resume) locks the plan and then every following visit: run at once they
 * deadlocked, and PostgreSQL aborted one after a second ("deadlock detected", 40P01).
 *
 * The interleaving is forced, not hoped for: a third transaction holds the plan's row while the
 * pause queues for it, then the skip starts (the old skip locked its visit and queued behind the
 * pause); the plan is then let go. Only PostgreSQL runs transactions at once (PGlite has one
 * connection), so without TEST_DATABASE_URL the file is skipped.
 */
const onServer = Boolean(testServerUrl());

describe.skipIf(!onServer)("a visit's skip and its plan's change at once (PostgreSQL)", { timeout: 60_000 }, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  const db = () => database.db;

  /** Waits until `count` sessions of this database wait for a lock. */
  async function waitersAtLeast(count: number) {
    for (let waited = 0; waited < 10_000; waited += 20) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(db());
      if (rows[0].n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`fewer than ${count} sessions ever waited for a lock`);
  }

  /** Holds the plan's row until `release` is called, on a connection of its own. */
  async function holdPlan(planId: string) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const done = db()
      .transaction()
      .execute(async (trx) => {
        await sql`select id from customer_plans where id = ${planId} for update`.execute(trx);
        locked();
        await released;
      });
    await isLocked;
    return { release, done };
  }

  const deadlocked = (result: PromiseSettledResult<unknown>) =>
    result.status === "rejected" && (result.reason as { code?: string }).code === "40P01";

  it("a customer pauses the plan while skipping one of its visits: both commit, no deadlock", async () => {
    const { customer, plan, visits } = await customerWithTuesdayPlan(db());
    const actor = { id: customer.id, isAdmin: false };
    // Skip March 9; the pause (16 to 20 March) still locks every following visit, March 9 too.
    const skipped = visits.find((visit) => visit.day === "2027-03-09")!;
    const holder = await holdPlan(plan.id);
    const pause = pausePlan(db(), {
      planId: plan.id,
      customerId: customer.id,
      actor,
      now: PLAN_TEST_MONDAY,
      from: "2027-03-16",
      until: "2027-03-20",
    });
    await waitersAtLeast(1);
    const skip = skipVisit(db(), { visitId: skipped.id, customerId: customer.id, actor, now: PLAN_TEST_MONDAY });
    await waitersAtLeast(2);
    holder.release();
    await holder.done;
    const results = await Promise.allSettled([pause, skip]);
    expect(results.filter(deadlocked), JSON.stringify(results)).toEqual([]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled"]);
    const after = await db()
      .selectFrom("services")
      .select(["plan_slot", "status", "skip_reason"])
      .where("plan_id", "=", plan.id)
      .orderBy("plan_slot")
      .execute();
    expect(after.map((visit) => [String(visit.plan_slot), visit.status, visit.skip_reason])).toEqual([
      ["2027-03-02", "scheduled", null],
      ["2027-03-09", "skipped", "customer"],
      ["2027-03-16", "skipped", "paused"],
      ["2027-03-23", "scheduled", null],
    ]);
  });

  it("a payment hold on the plan (the collection's, in the invoice's transaction) while a visit is skipped: no deadlock", async () => {
    const { customer, plan, visits } = await customerWithTuesdayPlan(db());
    const actor = { id: customer.id, isAdmin: false };
    const skipped = visits.find((visit) => visit.day === "2027-03-09")!;
    const holder = await holdPlan(plan.id);
    const hold = db()
      .transaction()
      .execute((trx) => holdPlanForPayment(trx, { planId: plan.id, now: PLAN_TEST_MONDAY, detail: "Payment overdue" }));
    await waitersAtLeast(1);
    const skip = skipVisit(db(), { visitId: skipped.id, customerId: customer.id, actor, now: PLAN_TEST_MONDAY });
    await waitersAtLeast(2);
    holder.release();
    await holder.done;
    const [held, skippedResult] = await Promise.allSettled([hold, skip]);
    expect([held, skippedResult].filter(deadlocked), JSON.stringify([held, skippedResult])).toEqual([]);
    expect(held).toEqual({ status: "fulfilled", value: true });
    // The hold came first and skipped March 9 for the payment: the customer's skip is refused
    // as for any visit no longer scheduled, and changes nothing.
    expect(skippedResult.status).toBe("rejected");
    expect((skippedResult as PromiseRejectedResult).reason).toBeInstanceOf(PlanChangeError);
    const visit = await db()
      .selectFrom("services")
      .select(["status", "skip_reason"])
      .where("id", "=", skipped.id)
      .executeTakeFirstOrThrow();
    expect(visit).toEqual({ status: "skipped", skip_reason: "payment_overdue" });
    const skipEvents = await db()
      .selectFrom("customer_plan_events")
      .select("kind")
      .where("plan_id", "=", plan.id)
      .where("kind", "=", "visit_skipped")
      .execute();
    expect(skipEvents).toEqual([]);
  });
});
