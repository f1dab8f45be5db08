import { sql, type Kysely } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { connect } from "../../../db/connection";
import type { Database, NewCustomerPlan } from "../../../db/schema";
import { useAppDatabase } from "../../../tests/helpers/app-database";
import { testServerUrl } from "../../../tests/helpers/test-database";
import { insertPlanVisits } from "~/models/plan-visit.server";
import { PLAN_VISITS_LOCK, generatePlanVisits, type GenerateRules } from "./visit-generator.server";

/**
 * The plan visit generator (issue 25 item 3, docs/decisions/091) on a real database, with a fixed
 * clock. Monday 2026-11-23, 06:00 in Las Vegas; Thanksgiving is Thursday 2026-11-26.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const MONDAY_6AM = new Date("2026-11-23T14:00:00Z");
const RULES: GenerateRules = { horizonDays: 28, firstVisitTime: "08:00", closedDays: [] };
const THANKSGIVING = { date: "2026-11-26", name: "Thanksgiving" };
const WITH_THANKSGIVING: GenerateRules = { ...RULES, closedDays: [THANKSGIVING] };
/** 08:00 in Las Vegas (Pacific standard time in late November and December). */
const at8 = (day: string) => new Date(`${day}T16:00:00Z`);

let customerNumber = 0;
async function createCustomers(count: number, handle: Kysely<Database> = db()): Promise<string[]> {
  const first = customerNumber + 1;
  customerNumber += count;
  const result = await sql<{ id: string }>`insert into users (email)
    select 'plan-customer-' || g || '@example.com' from generate_series(${first}::int, ${customerNumber}::int) g
    returning id`.execute(handle);
  return result.rows.map((row) => row.id);
}

type PlanValues = Partial<Omit<NewCustomerPlan, "weekdays">> & { weekdays: number[] };
async function createPlan(values: PlanValues, handle: Kysely<Database> = db()) {
  const [customerId] = values.customer_id ? [values.customer_id] : await createCustomers(1, handle);
  return handle
    .insertInto("customer_plans")
    .values({
      catalogue_plan_id: "weekly-swift-service",
      catalogue_plan_name: "Weekly Swift Service",
      visits_per_week: values.weekdays.length,
      dog_count: 1,
      yard_size: "medium",
      start_date: "2026-11-01",
      ...values,
      customer_id: customerId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function visitsOf(planId: string) {
  return db()
    .selectFrom("services")
    .select([
      "id",
      "customer_id",
      "service_type",
      "service_date",
      "status",
      "skip_reason",
      "plan_slot",
      "created_by",
      "plan_left_at",
    ])
    .where("plan_id", "=", planId)
    .orderBy("plan_slot")
    .execute();
}

const slots = (visits: { plan_slot: string | null }[]) => visits.map((visit) => visit.plan_slot);
const countVisits = async (handle: Kysely<Database> = db()) =>
  Number((await sql<{ n: number }>`select count(*)::int as n from services`.execute(handle)).rows[0].n);

beforeEach(async () => {
  await db().deleteFrom("service_events").execute();
  await db().deleteFrom("services").execute();
  await db().deleteFrom("customer_plans").execute();
});

describe("generatePlanVisits", () => {
  it("makes an active plan's visits for the horizon, at the first visit time, linked to their slots", async () => {
    const plan = await createPlan({ weekdays: [2] });
    const result = await generatePlanVisits({ now: MONDAY_6AM, rules: RULES });
    expect(result).toEqual({ ran: true, plans: 1, inserted: 4, moved: 0, cancelled: 0 });
    const visits = await visitsOf(plan.id);
    // Today (Nov 23) to today + 28 days (Dec 21): four Tuesdays.
    expect(slots(visits)).toEqual(["2026-11-24", "2026-12-01", "2026-12-08", "2026-12-15"]);
    for (const visit of visits) {
      expect(visit).toMatchObject({
        customer_id: plan.customer_id,
        service_type: "Weekly Service",
        status: "scheduled",
        skip_reason: null,
        created_by: null,
        plan_left_at: null,
      });
      expect(visit.service_date).toEqual(at8(visit.plan_slot!));
    }
  });

  it("a second run inserts nothing, and a run a week later adds only the new week", async () => {
    const plan = await createPlan({ weekdays: [1, 3, 5], visits_per_week: 3 });
    const first = await generatePlanVisits({ now: MONDAY_6AM, rules: RULES });
    expect(first.inserted).toBe(13);
    expect(await generatePlanVisits({ now: MONDAY_6AM, rules: RULES })).toEqual({
      ran: true,
      plans: 1,
      inserted: 0,
      moved: 0,
      cancelled: 0,
    });
    const nextMonday = new Date(MONDAY_6AM.getTime() + 7 * 24 * 3_600_000);
    const later = await generatePlanVisits({ now: nextMonday, rules: RULES });
    expect(later.inserted).toBe(3);
    const visits = await visitsOf(plan.id);
    expect(visits).toHaveLength(16);
    expect(new Set(visits.map((visit) => visit.service_type))).toEqual(new Set(["Thrice Weekly Service"]));
    expect(slots(visits).at(-1)).toBe("2026-12-28");
  });

  it("respects the start date and makes no visit whose start has passed (fixed clock)", async () => {
    const later = await createPlan({ weekdays: [1, 3], start_date: "2026-12-07" });
    const today = await createPlan({ weekdays: [1, 2] });
    // Monday 09:00: today's 08:00 visit has started, tomorrow's has not.
    const mondayNine = new Date("2026-11-23T17:00:00Z");
    await generatePlanVisits({ now: mondayNine, rules: RULES });
    expect(slots(await visitsOf(later.id))).toEqual([
      "2026-12-07",
      "2026-12-09",
      "2026-12-14",
      "2026-12-16",
      "2026-12-21",
    ]);
    expect(slots(await visitsOf(today.id))[0]).toBe("2026-11-24");
    expect((await visitsOf(later.id))[0].service_type).toBe("Twice Weekly Service");
  });

  it("moves a Thanksgiving Thursday to Friday; a Thursday and Friday plan gets two Friday visits with distinct slots", async () => {
    const thursday = await createPlan({ weekdays: [4] });
    const both = await createPlan({ weekdays: [4, 5] });
    await generatePlanVisits({ now: MONDAY_6AM, rules: WITH_THANKSGIVING });
    const [thanksgiving] = await visitsOf(thursday.id);
    expect(thanksgiving.plan_slot).toBe("2026-11-26");
    expect(thanksgiving.service_date).toEqual(at8("2026-11-27"));
    const fridayVisits = (await visitsOf(both.id)).filter(
      (visit) => visit.service_date.getTime() === at8("2026-11-27").getTime(),
    );
    expect(slots(fridayVisits)).toEqual(["2026-11-26", "2026-11-27"]);
    // Nothing on the closed day itself.
    const onThanksgiving = await db()
      .selectFrom("services")
      .select("id")
      .where("service_date", "=", at8("2026-11-26"))
      .execute();
    expect(onThanksgiving).toEqual([]);
    expect((await generatePlanVisits({ now: MONDAY_6AM, rules: WITH_THANKSGIVING })).inserted).toBe(0);
  });

  it("makes a paused plan's visits in the pause skipped ('paused'), the others scheduled", async () => {
    const plan = await createPlan({
      weekdays: [2],
      status: "paused",
      paused_from: "2026-11-30",
      paused_until: "2026-12-13",
    });
    await generatePlanVisits({ now: MONDAY_6AM, rules: RULES });
    const visits = await visitsOf(plan.id);
    expect(visits.map((visit) => [visit.plan_slot, visit.status, visit.skip_reason])).toEqual([
      ["2026-11-24", "scheduled", null],
      ["2026-12-01", "skipped", "paused"],
      ["2026-12-08", "skipped", "paused"],
      ["2026-12-15", "scheduled", null],
    ]);
  });

  it("makes a cancelled plan's visits up to its last visit day only, and none for one that ended", async () => {
    const ending = await createPlan({
      weekdays: [1, 3],
      status: "cancelled",
      cancelled_at: new Date("2026-11-20T18:00:00Z"),
      last_visit_date: "2026-12-02",
    });
    const ended = await createPlan({
      weekdays: [1, 3],
      status: "cancelled",
      cancelled_at: new Date("2026-11-10T18:00:00Z"),
      last_visit_date: "2026-11-18",
    });
    const result = await generatePlanVisits({ now: MONDAY_6AM, rules: RULES });
    expect(slots(await visitsOf(ending.id))).toEqual(["2026-11-23", "2026-11-25", "2026-11-30", "2026-12-02"]);
    expect(await visitsOf(ended.id)).toEqual([]);
    expect(result).toMatchObject({ plans: 1, inserted: 4 });
  });

  it("walks the plans in keyset batches: every plan once", async () => {
    const customers = await createCustomers(10);
    for (const customerId of customers) await createPlan({ customer_id: customerId, weekdays: [2] });
    const result = await generatePlanVisits({ now: MONDAY_6AM, rules: RULES, batchSize: 3 });
    expect(result).toEqual({ ran: true, plans: 10, inserted: 40, moved: 0, cancelled: 0 });
    expect(await countVisits()).toBe(40);
  });

  it("awaits betweenBatches between two batches only (the server paces its runs, decision 099)", async () => {
    const customers = await createCustomers(10);
    for (const customerId of customers) await createPlan({ customer_id: customerId, weekdays: [2] });
    let pauses = 0;
    const result = await generatePlanVisits({
      now: MONDAY_6AM,
      rules: RULES,
      batchSize: 3,
      betweenBatches: async () => void pauses++,
    });
    expect(result).toEqual({ ran: true, plans: 10, inserted: 40, moved: 0, cancelled: 0 });
    // Batches of 3, 3, 3 and 1: a pause after each of the first three, none after the last.
    expect(pauses).toBe(3);
  });

  it("a closed day added later moves the scheduled visit and writes its history; hand-changed, completed and skipped ones stay", async () => {
    const moves = await createPlan({ weekdays: [4] });
    const leftPlan = await createPlan({ weekdays: [4] });
    const completed = await createPlan({ weekdays: [4] });
    const skipped = await createPlan({ weekdays: [4] });
    await generatePlanVisits({ now: MONDAY_6AM, rules: RULES });
    const thursdayOf = async (planId: string) => (await visitsOf(planId))[0];
    for (const plan of [moves, leftPlan, completed, skipped]) {
      expect((await thursdayOf(plan.id)).service_date).toEqual(at8("2026-11-26"));
    }
    await db()
      .updateTable("services")
      .set({ plan_left_at: new Date() })
      .where("id", "=", (await thursdayOf(leftPlan.id)).id)
      .execute();
    await db()
      .updateTable("services")
      .set({ status: "completed", completed_at: new Date() })
      .where("id", "=", (await thursdayOf(completed.id)).id)
      .execute();
    await db()
      .updateTable("services")
      .set({ status: "skipped", skip_reason: "customer" })
      .where("id", "=", (await thursdayOf(skipped.id)).id)
      .execute();

    // The owner adds Thanksgiving in Sanity; the next run (Tuesday) moves what still follows its plan.
    const tuesday = new Date("2026-11-24T14:00:00Z");
    const result = await generatePlanVisits({ now: tuesday, rules: WITH_THANKSGIVING });
    expect(result).toEqual({ ran: true, plans: 4, inserted: 0, moved: 1, cancelled: 0 });
    const moved = await thursdayOf(moves.id);
    expect(moved).toMatchObject({ plan_slot: "2026-11-26", status: "scheduled" });
    expect(moved.service_date).toEqual(at8("2026-11-27"));
    const history = await db().selectFrom("service_events").selectAll().execute();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      service_id: moved.id,
      kind: "rescheduled",
      actor_id: null,
      from_status: "scheduled",
      to_status: "scheduled",
    });
    expect(history[0].detail).toContain("Thanksgiving is a closed day");
    expect(history[0].detail).toContain("Nov 27, 2026, 8:00 AM");
    for (const plan of [leftPlan, completed, skipped]) {
      expect((await thursdayOf(plan.id)).service_date).toEqual(at8("2026-11-26"));
    }
    expect((await thursdayOf(completed.id)).status).toBe("completed");
    expect((await thursdayOf(skipped.id)).status).toBe("skipped");
    // Nothing moves twice.
    expect(await generatePlanVisits({ now: tuesday, rules: WITH_THANKSGIVING })).toMatchObject({
      inserted: 0,
      moved: 0,
    });
    expect(await db().selectFrom("service_events").select("id").execute()).toHaveLength(1);
  });

  it("leaves a visit on a newly closed day alone once it has started", async () => {
    const plan = await createPlan({ weekdays: [4] });
    await generatePlanVisits({ now: MONDAY_6AM, rules: RULES });
    const thursdayNine = new Date("2026-11-26T17:00:00Z");
    const result = await generatePlanVisits({ now: thursdayNine, rules: WITH_THANKSGIVING });
    expect(result.moved).toBe(0);
    expect((await visitsOf(plan.id))[0].service_date).toEqual(at8("2026-11-26"));
  });

  it("a slot with no open weekday within 31 days gets no visit; one made before such days were closed is cancelled", async () => {
    // Closed every day from Thanksgiving to Dec 28: the Nov 26 slot finds no open weekday in the
    // 31 days after it; the later Thursdays pile onto Tuesday Dec 29, the first open weekday.
    const closedDays = Array.from({ length: 33 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 10, 26 + i)).toISOString().slice(0, 10),
      name: "Closed for the holidays",
    }));
    const rules = { ...RULES, closedDays };
    const fresh = await createPlan({ weekdays: [4] });
    await generatePlanVisits({ now: MONDAY_6AM, rules });
    const freshVisits = await visitsOf(fresh.id);
    expect(slots(freshVisits)).toEqual(["2026-12-03", "2026-12-10", "2026-12-17"]);
    expect(freshVisits.every((visit) => visit.service_date.getTime() === at8("2026-12-29").getTime())).toBe(true);

    await db().deleteFrom("services").execute();
    await db().deleteFrom("customer_plans").execute();
    const made = await createPlan({ weekdays: [4] });
    await generatePlanVisits({ now: MONDAY_6AM, rules: RULES });
    const result = await generatePlanVisits({ now: MONDAY_6AM, rules });
    expect(result).toMatchObject({ inserted: 0, moved: 3, cancelled: 1 });
    const visits = await visitsOf(made.id);
    expect(visits.map((visit) => [visit.plan_slot, visit.status])).toEqual([
      ["2026-11-26", "cancelled"],
      ["2026-12-03", "scheduled"],
      ["2026-12-10", "scheduled"],
      ["2026-12-17", "scheduled"],
    ]);
    const history = await db()
      .selectFrom("service_events")
      .select(["service_id", "kind", "from_status", "to_status", "detail"])
      .where("service_id", "=", visits[0].id)
      .execute();
    expect(history).toEqual([
      {
        service_id: visits[0].id,
        kind: "status",
        from_status: "scheduled",
        to_status: "cancelled",
        detail: "Closed for the holidays is a closed day, and no weekday within 31 days is open",
      },
    ]);
  });

  it("the insert leaves a slot that has its visit already alone (ON CONFLICT on the plan's slot)", async () => {
    const plan = await createPlan({ weekdays: [2] });
    await generatePlanVisits({ now: MONDAY_6AM, rules: RULES });
    const row = {
      customer_id: plan.customer_id,
      service_type: "Weekly Service" as const,
      service_date: at8("2026-11-25"),
      status: "scheduled" as const,
      skip_reason: null,
      plan_id: plan.id,
      plan_slot: "2026-11-24",
    };
    const fresh = { ...row, plan_slot: "2026-12-22", service_date: at8("2026-12-22") };
    expect(await insertPlanVisits(db(), [row, fresh])).toBe(1);
    expect(slots(await visitsOf(plan.id))).toEqual([
      "2026-11-24",
      "2026-12-01",
      "2026-12-08",
      "2026-12-15",
      "2026-12-22",
    ]);
    expect((await visitsOf(plan.id))[0].service_date).toEqual(at8("2026-11-24"));
  });

  it("stops between batches once told to (the server stopping)", async () => {
    await createPlan({ weekdays: [2] });
    const controller = new AbortController();
    controller.abort();
    const result = await generatePlanVisits({ now: MONDAY_6AM, rules: RULES, signal: controller.signal });
    expect(result).toEqual({ ran: true, plans: 0, inserted: 0, moved: 0, cancelled: 0 });
    expect(await countVisits()).toBe(0);
  });

  it("two generators started at once on one handle make each visit once", async () => {
    const customers = await createCustomers(30);
    for (const customerId of customers) await createPlan({ customer_id: customerId, weekdays: [1, 4] });
    const runs = await Promise.all([
      generatePlanVisits({ now: MONDAY_6AM, rules: WITH_THANKSGIVING, batchSize: 4 }),
      generatePlanVisits({ now: MONDAY_6AM, rules: WITH_THANKSGIVING, batchSize: 4 }),
    ]);
    expect(runs.some((run) => run.ran)).toBe(true);
    expect(runs[0].inserted + runs[1].inserted).toBe(30 * 9);
    expect(await countVisits()).toBe(30 * 9);
  });
});

/** Two machines: two pools on one PostgreSQL database (PGlite has a single connection). */
describe.skipIf(!testServerUrl())("two generators on separate connections (PostgreSQL)", () => {
  async function otherPool() {
    const url = new URL(testServerUrl()!);
    url.pathname = `/${database.current.name}`;
    return connect({ databaseUrl: url.toString(), poolSize: 2 });
  }

  async function seedPlans(count: number) {
    const customers = await createCustomers(count);
    await sql`insert into customer_plans (customer_id, catalogue_plan_id, catalogue_plan_name, visits_per_week,
        weekdays, dog_count, yard_size, start_date)
      select id, 'weekly-swift-service', 'Weekly Swift Service', 2, array[2, 4]::smallint[], 1, 'medium', '2026-11-01'
      from unnest(${customers}::uuid[]) as id`.execute(db());
  }

  const duplicates = async () =>
    (
      await sql<{ n: number }>`select count(*)::int as n from (select plan_id, plan_slot from services
        group by plan_id, plan_slot having count(*) > 1) d`.execute(db())
    ).rows[0].n;

  it("with the lock: started at once, each visit is made once; while another holds it, a run does nothing", async () => {
    await seedPlans(300);
    const [a, b] = [await otherPool(), await otherPool()];
    try {
      const runs = await Promise.all([
        generatePlanVisits({ now: MONDAY_6AM, rules: WITH_THANKSGIVING, db: a.db, batchSize: 20 }),
        generatePlanVisits({ now: MONDAY_6AM, rules: WITH_THANKSGIVING, db: b.db, batchSize: 20 }),
      ]);
      expect(runs.some((run) => run.ran)).toBe(true);
      // Tuesdays and Thursdays from Nov 23 to Dec 21: 8 slots per plan.
      expect(runs[0].inserted + runs[1].inserted).toBe(300 * 8);
      expect(await countVisits()).toBe(300 * 8);
      expect(await duplicates()).toBe(0);

      // A third session holds the lock: the generator returns at once, having done nothing.
      await createPlan({ weekdays: [1] });
      const held = await a.db.connection().execute(async (conn) => {
        await sql`select pg_advisory_lock(hashtextextended(${PLAN_VISITS_LOCK}, 0))`.execute(conn);
        try {
          return await generatePlanVisits({ now: MONDAY_6AM, rules: RULES, db: b.db });
        } finally {
          await sql`select pg_advisory_unlock(hashtextextended(${PLAN_VISITS_LOCK}, 0))`.execute(conn);
        }
      });
      expect(held).toEqual({ ran: false, plans: 0, inserted: 0, moved: 0, cancelled: 0 });
      expect(await countVisits()).toBe(300 * 8);
      // Released: the next run makes the new plan's visits.
      expect((await generatePlanVisits({ now: MONDAY_6AM, rules: RULES, db: b.db })).inserted).toBe(5);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a plan change in progress is waited for: the visits follow the plan as changed, not as first read", async () => {
    const plan = await createPlan({ weekdays: [2] });
    const [a, b] = [await otherPool(), await otherPool()];
    try {
      let generating: Promise<unknown> | undefined;
      await a.db.transaction().execute(async (trx) => {
        // A plan workflow locks its plan first (lockPlan: FOR UPDATE) ...
        await trx.selectFrom("customer_plans").select("id").where("id", "=", plan.id).forUpdate().execute();
        generating = generatePlanVisits({ now: MONDAY_6AM, rules: RULES, db: b.db });
        // ... the generator read the plan (Tuesdays), found them missing, and waits for the lock
        // (seen from another session: a transaction keeps its first look at pg_stat_activity).
        for (let i = 0; ; i++) {
          const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`.execute(db());
          if (waiting.rows[0].n > 0) break;
          if (i > 200) throw new Error("the generator never waited for the plan's lock");
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        await trx
          .updateTable("customer_plans")
          .set({ weekdays: [4] })
          .where("id", "=", plan.id)
          .execute();
      });
      expect(await generating).toMatchObject({ ran: true, inserted: 4 });
      expect(slots(await visitsOf(plan.id))).toEqual(["2026-11-26", "2026-12-03", "2026-12-10", "2026-12-17"]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("without the lock (both run at once), the unique key alone makes each visit once", async () => {
    await seedPlans(300);
    const [a, b] = [await otherPool(), await otherPool()];
    try {
      const runs = await Promise.all([
        generatePlanVisits({ now: MONDAY_6AM, rules: WITH_THANKSGIVING, db: a.db, batchSize: 10, lockName: "test-a" }),
        generatePlanVisits({ now: MONDAY_6AM, rules: WITH_THANKSGIVING, db: b.db, batchSize: 10, lockName: "test-b" }),
      ]);
      expect(runs.every((run) => run.ran && run.plans === 300)).toBe(true);
      expect(runs[0].inserted + runs[1].inserted).toBe(300 * 8);
      expect(await countVisits()).toBe(300 * 8);
      expect(await duplicates()).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
