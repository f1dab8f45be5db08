import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser } from "../helpers/factories";
import {
  customerWithTuesdayPlan as startTuesdayPlan,
  PLAN_TEST_MONDAY,
  planVisitsOf,
  WEEKLY_PLAN,
} from "../helpers/plan-seed";
import type { PlanRules } from "~/content/types";
import {
  cancelPlan,
  changePlan,
  pausePlan,
  PlanChangeError,
  resumePlan,
  skipVisit,
  startPlan,
  undoSkip,
} from "~/features/plans/plan-changes.server";

const database = useAppDatabase();
const db = () => database.current.db;

// Monday 1 March 2027, 10:00 in Las Vegas (PST, UTC-8). A fixed clock for every rule.
const MONDAY = PLAN_TEST_MONDAY;
const at = (iso: string) => new Date(iso);
const rules: PlanRules = {
  changeNoticeHours: 24,
  longestPauseDays: 90,
  horizonDays: 28,
  firstVisitTime: "08:00",
  closedDays: [],
};
const weekly = WEEKLY_PLAN;
const twice = { _id: "servicePlan.twice-weekly", name: "Twice-Weekly Swift Service", visitsPerWeek: 2 };

/** The shared Tuesday plan (tests/helpers/plan-seed.ts) under these rules, and the customer acting alone. */
async function customerWithTuesdayPlan() {
  const seeded = await startTuesdayPlan(db(), rules);
  return { ...seeded, asCustomer: { id: seeded.customer.id, isAdmin: false } };
}

const visitsOf = (planId: string) => planVisitsOf(db(), planId);

const countOutbox = async (planId: string) =>
  (await db().selectFrom("outbox").select("kind").where("related_id", "=", planId).execute()).length;
const countEvents = async (planId: string) =>
  (await db().selectFrom("customer_plan_events").select("kind").where("plan_id", "=", planId).execute()).length;

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlanChangeError);
  return error as PlanChangeError;
}

describe("starting a plan", () => {
  it("makes the plan's visits for the horizon at the first visit time, and tells the customer and the owner", async () => {
    const { plan } = await customerWithTuesdayPlan();
    const visits = await visitsOf(plan.id);
    expect(visits.map((v) => v.day)).toEqual(["2027-03-02", "2027-03-09", "2027-03-16", "2027-03-23"]);
    expect(visits.every((v) => v.status === "scheduled" && v.plan_slot === v.day)).toBe(true);
    expect(visits[0].service_date.toISOString()).toBe("2027-03-02T16:00:00.000Z"); // 08:00 PST
    const mail = await db()
      .selectFrom("outbox")
      .select(["kind", "to_address"])
      .where("related_id", "=", plan.id)
      .execute();
    expect(mail.map((m) => m.kind).sort()).toEqual(["plan_customer", "plan_owner"]);
    expect(await countEvents(plan.id)).toBe(1);
  });

  it("refuses a second open plan, a one-time plan and a wrong number of days, storing nothing", async () => {
    const { admin, customer, plan } = await customerWithTuesdayPlan();
    const base = {
      customerId: customer.id,
      dogCount: 1,
      yardSize: "small",
      startDate: "2027-03-03",
      notes: null,
      actorId: admin.id,
      now: MONDAY,
      rules,
    };
    expect((await refusal(startPlan(db(), { ...base, cataloguePlan: weekly, weekdays: [3] }))).status).toBe(409);
    const other = await createUser(db());
    const oneTime = { _id: "servicePlan.desert-dash", name: "Desert Dash", visitsPerWeek: null };
    const tooFew = await refusal(
      startPlan(db(), { ...base, customerId: other.id, cataloguePlan: twice, weekdays: [2] }),
    );
    expect(tooFew.message).toBe("Twice-Weekly Swift Service has 2 visits a week: pick 2 service days.");
    await refusal(startPlan(db(), { ...base, customerId: other.id, cataloguePlan: oneTime, weekdays: [2] }));
    await refusal(startPlan(db(), { ...base, customerId: other.id, cataloguePlan: weekly, weekdays: [6] }));
    await refusal(
      startPlan(db(), { ...base, customerId: other.id, cataloguePlan: weekly, weekdays: [2], startDate: "2027-02-28" }),
    );
    const plans = await db()
      .selectFrom("customer_plans")
      .select("id")
      .where("customer_id", "in", [customer.id, other.id])
      .execute();
    expect(plans.map((p) => p.id)).toEqual([plan.id]);
  });
});

describe("skip and undo, on either side of the change notice", () => {
  it("refuses a skip within the notice with the number of hours, and changes nothing", async () => {
    const { plan, customer, asCustomer } = await customerWithTuesdayPlan();
    const [tomorrow] = await visitsOf(plan.id); // Tuesday 08:00: 22 hours away
    const before = [await countOutbox(plan.id), await countEvents(plan.id)];
    const error = await refusal(
      skipVisit(db(), { visitId: tomorrow.id, customerId: customer.id, actor: asCustomer, now: MONDAY, rules }),
    );
    expect(error.message).toBe("Visits can be changed up to 24 hours before they start.");
    expect((await visitsOf(plan.id))[0].status).toBe("scheduled");
    expect([await countOutbox(plan.id), await countEvents(plan.id)]).toEqual(before);
  });

  it("skips a visit with notice, and undoes it while the notice allows, then no longer", async () => {
    const { plan, customer, asCustomer } = await customerWithTuesdayPlan();
    const next = (await visitsOf(plan.id))[1]; // Tuesday 9 March
    await skipVisit(db(), { visitId: next.id, customerId: customer.id, actor: asCustomer, now: MONDAY, rules });
    expect((await visitsOf(plan.id))[1]).toMatchObject({ status: "skipped", skip_reason: "customer" });
    expect(await countEvents(plan.id)).toBe(2);
    expect(await countOutbox(plan.id)).toBe(4);

    await undoSkip(db(), { visitId: next.id, customerId: customer.id, actor: asCustomer, now: MONDAY, rules });
    expect((await visitsOf(plan.id))[1]).toMatchObject({ status: "scheduled", skip_reason: null });

    await skipVisit(db(), { visitId: next.id, customerId: customer.id, actor: asCustomer, now: MONDAY, rules });
    const late = at("2027-03-08T17:00:00Z"); // Monday 09:00: 23 hours before the visit
    const error = await refusal(
      undoSkip(db(), { visitId: next.id, customerId: customer.id, actor: asCustomer, now: late, rules }),
    );
    expect(error.message).toBe("Visits can be changed up to 24 hours before they start.");
    expect((await visitsOf(plan.id))[1].status).toBe("skipped");
  });

  it("keeps a skip made before a pause over its day while the pause lasts; after 'Resume now' it can be undone", async () => {
    const { plan, customer, asCustomer } = await customerWithTuesdayPlan();
    const [, ninth, sixteenth] = await visitsOf(plan.id);
    const act = { customerId: customer.id, actor: asCustomer, now: MONDAY, rules };
    await skipVisit(db(), { ...act, visitId: ninth.id });
    await pausePlan(db(), { ...act, planId: plan.id, from: "2027-03-08", until: "2027-03-21" });
    // The pause leaves the customer's own skip as it was, and skips the 16th itself.
    expect((await visitsOf(plan.id)).map((v) => [v.day, v.status, v.skip_reason])).toEqual([
      ["2027-03-02", "scheduled", null],
      ["2027-03-09", "skipped", "customer"],
      ["2027-03-16", "skipped", "paused"],
      ["2027-03-23", "scheduled", null],
    ]);
    const before = [await visitsOf(plan.id), await countOutbox(plan.id), await countEvents(plan.id)];
    const inPause = await refusal(undoSkip(db(), { ...act, visitId: ninth.id }));
    expect([inPause.status, inPause.message]).toEqual([
      409,
      "This visit falls within your pause. Resume your service first, then undo the skip.",
    ]);
    // The pause's own skip is not the customer's to undo either.
    expect((await refusal(undoSkip(db(), { ...act, visitId: sixteenth.id }))).message).toBe(
      "This visit is not skipped.",
    );
    expect([await visitsOf(plan.id), await countOutbox(plan.id), await countEvents(plan.id)]).toEqual(before);

    await resumePlan(db(), { ...act, planId: plan.id });
    expect((await visitsOf(plan.id)).map((v) => v.status)).toEqual(["scheduled", "skipped", "scheduled", "scheduled"]);
    await undoSkip(db(), { ...act, visitId: ninth.id });
    expect((await visitsOf(plan.id))[1]).toMatchObject({ status: "scheduled", skip_reason: null });
  });

  it("answers 404 to another customer's skip, undo, pause or cancel, and nothing changes", async () => {
    const { plan, customer } = await customerWithTuesdayPlan();
    const intruder = await createUser(db());
    const asIntruder = { id: intruder.id, isAdmin: false };
    const visit = (await visitsOf(plan.id))[2];
    const before = [await countOutbox(plan.id), await countEvents(plan.id)];
    // Started one at a time: a refusal left waiting would be an unhandled rejection.
    for (const attempt of [
      () => skipVisit(db(), { visitId: visit.id, customerId: intruder.id, actor: asIntruder, now: MONDAY, rules }),
      () => undoSkip(db(), { visitId: visit.id, customerId: intruder.id, actor: asIntruder, now: MONDAY, rules }),
      () =>
        pausePlan(db(), {
          planId: plan.id,
          customerId: intruder.id,
          actor: asIntruder,
          now: MONDAY,
          rules,
          from: "2027-03-08",
          until: "2027-03-12",
        }),
      () => cancelPlan(db(), { planId: plan.id, customerId: intruder.id, actor: asIntruder, now: MONDAY, rules }),
      () => resumePlan(db(), { planId: plan.id, customerId: intruder.id, actor: asIntruder, now: MONDAY, rules }),
    ]) {
      expect((await refusal(attempt())).status).toBe(404);
    }
    const after = await db()
      .selectFrom("customer_plans")
      .selectAll()
      .where("id", "=", plan.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe("active");
    expect((await visitsOf(plan.id)).every((v) => v.status === "scheduled")).toBe(true);
    expect([await countOutbox(plan.id), await countEvents(plan.id)]).toEqual(before);
    expect(customer.id).not.toBe(intruder.id);
  });
});

describe("pause and resume", () => {
  it("refuses a pause over the longest pause, storing nothing", async () => {
    const { plan, customer, asCustomer } = await customerWithTuesdayPlan();
    const error = await refusal(
      pausePlan(db(), {
        planId: plan.id,
        customerId: customer.id,
        actor: asCustomer,
        now: MONDAY,
        rules,
        from: "2027-03-08",
        until: "2027-06-06",
      }),
    );
    expect(error.message).toBe("A pause can last at most 90 days.");
    const after = await db()
      .selectFrom("customer_plans")
      .selectAll()
      .where("id", "=", plan.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: "active", paused_from: null, paused_until: null });
    expect(await countEvents(plan.id)).toBe(1);
  });

  it("skips the visits in the pause as 'paused', and resuming schedules them again", async () => {
    const { plan, customer, asCustomer } = await customerWithTuesdayPlan();
    const paused = await pausePlan(db(), {
      planId: plan.id,
      customerId: customer.id,
      actor: asCustomer,
      now: MONDAY,
      rules,
      from: "2027-03-08",
      until: "2027-03-21",
    });
    expect(paused).toMatchObject({ status: "paused", paused_from: "2027-03-08", paused_until: "2027-03-21" });
    expect((await visitsOf(plan.id)).map((v) => [v.day, v.status, v.skip_reason])).toEqual([
      ["2027-03-02", "scheduled", null],
      ["2027-03-09", "skipped", "paused"],
      ["2027-03-16", "skipped", "paused"],
      ["2027-03-23", "scheduled", null],
    ]);
    await resumePlan(db(), { planId: plan.id, customerId: customer.id, actor: asCustomer, now: MONDAY, rules });
    expect((await visitsOf(plan.id)).every((v) => v.status === "scheduled" && v.skip_reason === null)).toBe(true);
  });
});

describe("changing the days", () => {
  it("moves only the plan's untouched future visits from the date on", async () => {
    const { admin, plan, customer, asCustomer } = await customerWithTuesdayPlan();
    const [, skipped, handChanged] = await visitsOf(plan.id);
    await skipVisit(db(), { visitId: skipped.id, customerId: customer.id, actor: asCustomer, now: MONDAY, rules });
    await db().updateTable("services").set({ plan_left_at: MONDAY }).where("id", "=", handChanged.id).execute();
    await db()
      .updateTable("services")
      .set({ status: "completed" })
      .where("id", "=", (await visitsOf(plan.id))[0].id)
      .execute();

    await changePlan(db(), {
      planId: plan.id,
      customerId: customer.id,
      cataloguePlan: weekly,
      weekdays: [3],
      dogCount: 2,
      yardSize: "medium",
      fromDate: "2027-03-08",
      notes: null,
      actor: { id: admin.id, isAdmin: true },
      now: MONDAY,
      rules,
    });
    expect((await visitsOf(plan.id)).map((v) => [v.day, v.status])).toEqual([
      ["2027-03-02", "completed"], // before the change: as it was
      ["2027-03-09", "skipped"], // the customer's skip stays
      ["2027-03-10", "scheduled"],
      ["2027-03-16", "scheduled"], // changed by hand: no longer follows the plan
      ["2027-03-17", "scheduled"],
      ["2027-03-24", "scheduled"],
    ]);
  });
});

describe("a change from a later date, then a pause", () => {
  it("keeps the visits left on the old days before the change, skipping and restoring them by their day", async () => {
    const { admin, plan, customer, asCustomer } = await customerWithTuesdayPlan();
    await changePlan(db(), {
      planId: plan.id,
      customerId: customer.id,
      cataloguePlan: weekly,
      weekdays: [3],
      dogCount: 2,
      yardSize: "medium",
      fromDate: "2027-03-10",
      notes: null,
      actor: { id: admin.id, isAdmin: true },
      now: MONDAY,
      rules,
    });
    const days = async () => (await visitsOf(plan.id)).map((v) => [v.day, v.status, v.skip_reason]);
    expect(await days()).toEqual([
      ["2027-03-02", "scheduled", null],
      ["2027-03-09", "scheduled", null], // before the change's date: still a Tuesday
      ["2027-03-10", "scheduled", null],
      ["2027-03-17", "scheduled", null],
      ["2027-03-24", "scheduled", null],
    ]);
    const pause = { planId: plan.id, customerId: customer.id, actor: asCustomer, now: MONDAY, rules };
    await pausePlan(db(), { ...pause, from: "2027-03-08", until: "2027-03-12" });
    // The Tuesday kept by the change is paused like the rest, not removed as "no longer on the plan's days".
    expect(await days()).toEqual([
      ["2027-03-02", "scheduled", null],
      ["2027-03-09", "skipped", "paused"],
      ["2027-03-10", "skipped", "paused"],
      ["2027-03-17", "scheduled", null],
      ["2027-03-24", "scheduled", null],
    ]);
    await resumePlan(db(), pause);
    expect(await days()).toEqual([
      ["2027-03-02", "scheduled", null],
      ["2027-03-09", "scheduled", null],
      ["2027-03-10", "scheduled", null],
      ["2027-03-17", "scheduled", null],
      ["2027-03-24", "scheduled", null],
    ]);
  });
});

describe("cancel", () => {
  it("keeps the visit within the notice as the last one and cancels every later one", async () => {
    const { plan, customer, asCustomer } = await customerWithTuesdayPlan();
    const cancelled = await cancelPlan(db(), {
      planId: plan.id,
      customerId: customer.id,
      actor: asCustomer,
      now: MONDAY,
      rules,
    });
    expect(cancelled).toMatchObject({ status: "cancelled", last_visit_date: "2027-03-02" });
    expect((await visitsOf(plan.id)).map((v) => v.status)).toEqual([
      "scheduled",
      "cancelled",
      "cancelled",
      "cancelled",
    ]);
    const again = await refusal(
      cancelPlan(db(), { planId: plan.id, customerId: customer.id, actor: asCustomer, now: MONDAY, rules }),
    );
    expect(again.status).toBe(409);
  });
});
