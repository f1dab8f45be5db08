import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, type TestUser } from "../helpers/factories";
import {
  customerWithTuesdayPlan as startTuesdayPlan,
  PLAN_TEST_MONDAY,
  planVisitsOf,
  WEEKLY_PLAN,
} from "../helpers/plan-seed";
import { locationOf, toastOf } from "../helpers/route-calls";
import { getAddOns, getCatalogue, getSiteSettings } from "~/content/content.server";
import { estimateMonthlyPrice, formatPrice } from "~/content/pricing";
import { runBilling } from "~/features/billing/billing-run.server";
import { formatCents } from "~/features/billing/money";
import { startPlan } from "~/features/plans/plan-changes.server";
import { formatPlanDay, formatVisitDay } from "~/features/plans/your-plan-format";
import { handleYourPlanAction, loadYourPlan, loadYourPlanCard } from "~/features/plans/your-plan.server";

/**
 * "Your Plan" (issue 25, item 4): the page's loader and action logic (features/plans/your-plan.server.ts)
 * on a fixed clock, with the owner's rules of the bundled dataset (24 hours' notice, 90 days'
 * longest pause, visits at 08:00, no closed day in March 2027).
 */
const database = useAppDatabase();
const db = () => database.current.db;

// Monday 1 March 2027, 10:00 in Las Vegas (PST, UTC-8).
const MONDAY = PLAN_TEST_MONDAY;
const PAGE = "http://localhost/customer-dashboard/plan";
const weekly = WEEKLY_PLAN;

/** A customer with a Tuesday plan for 2 dogs from Monday 1 March: visits on 2, 9, 16 and 23 March. */
const customerWithTuesdayPlan = () => startTuesdayPlan(db());
const visitsOf = (planId: string) => planVisitsOf(db(), planId);

/** What a refusal must leave untouched: the plan, its visits, its history and its e-mails. */
async function snapshot(planId: string) {
  return {
    plan: await db().selectFrom("customer_plans").selectAll().where("id", "=", planId).executeTakeFirstOrThrow(),
    visits: await visitsOf(planId),
    events: (await db().selectFrom("customer_plan_events").select("id").where("plan_id", "=", planId).execute()).length,
    outbox: (await db().selectFrom("outbox").select("id").where("related_id", "=", planId).execute()).length,
  };
}

const as = (user: TestUser) => ({ id: user.id, fullName: user.fullName });

function post(user: TestUser, form: Record<string, string>, now = MONDAY) {
  const request = new Request(PAGE, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  return handleYourPlanAction(request, as(user), now);
}

const load = (user: TestUser, now = MONDAY, url = PAGE) => loadYourPlan(as(user), new URL(url), now);

async function expectSuccess(response: Response, message: string) {
  expect(response.status).toBe(302);
  expect(locationOf(response)).toBe("/customer-dashboard/plan");
  const toast = await toastOf(response);
  expect(toast).toMatchObject({ type: "success", message });
}

type Refusal = { toast: { type: string; message: string; description: string }; visitId?: string; result?: unknown };
async function expectRefusal(response: Response, status: number, description?: string): Promise<Refusal> {
  expect(response.status).toBe(status);
  // A refusal answers the page again (no redirect, no success toast).
  expect(locationOf(response)).toBeNull();
  expect(await toastOf(response)).toBeUndefined();
  const data = (await response.json()) as Refusal;
  expect(data.toast.type).toBe("error");
  if (description) expect(data.toast.description).toBe(description);
  return data;
}

describe("the page", () => {
  it("shows the plan, its price from the catalogue and add-on, and the next visits with what can still change", async () => {
    const { customer, plan, visits } = await customerWithTuesdayPlan();
    const data = await load(customer);
    const settings = await getSiteSettings();
    const card = (await getCatalogue()).find((entry) => entry._id === weekly._id)!;
    const amount = estimateMonthlyPrice(card.price, 2, await getAddOns())!;
    expect(data.plan).toMatchObject({
      id: plan.id,
      name: "Weekly Swift Service",
      serviceDays: "Tuesday",
      dogs: 2,
      monthlyPrice: { shown: formatPrice({ amount, unit: "month" }) },
      status: { kind: "active" },
      canPause: true,
      canResume: false,
      canCancel: true,
    });
    expect(amount).toBeGreaterThan(card.price.amount); // the multi-dog add-on is in
    expect(data.contact.phone).toBe(settings.phone);
    expect(data.visits.map((v) => v.day)).toEqual(visits.map((v) => formatVisitDay(v.service_date)));
    expect(data.visits[0].day).toBe("Tuesday, Mar 2, 2027");
    // Tuesday 08:00 is 22 hours away: within the notice, no button, a word about calling.
    expect(data.visits[0]).toMatchObject({ canSkip: false, canUndo: false, locked: true });
    expect(data.visits.slice(1).every((v) => v.canSkip && !v.locked)).toBe(true);
    expect(data.confirmCancel).toBe(false);
    expect((await load(customer, MONDAY, `${PAGE}?cancel=confirm`)).confirmCancel).toBe(true);
  });

  it("shows at most the next 8 visits, from now on", async () => {
    const customer = await createUser(db());
    const admin = await createUser(db(), { admin: true });
    const plan = await startPlan(db(), {
      customerId: customer.id,
      cataloguePlan: { _id: "servicePlan.thrice-weekly", name: "Triple Swift Service", visitsPerWeek: 3 },
      weekdays: [1, 3, 5],
      dogCount: 1,
      yardSize: "small",
      startDate: "2027-03-01",
      notes: null,
      actorId: admin.id,
      now: MONDAY,
    });
    const all = await visitsOf(plan.id);
    const data = await load(customer);
    // Monday's 08:00 visit had started when the plan began: the first is Wednesday's.
    expect(all[0].day).toBe("2027-03-03");
    expect(all.length).toBeGreaterThan(8);
    expect(data.visits.map((v) => v.id)).toEqual(all.slice(0, 8).map((v) => v.id));
    // Two days later, Wednesday's and Friday's have started or passed: the next 8 from Monday 8 March.
    const friday = new Date("2027-03-05T18:00:00Z");
    expect((await load(customer, friday)).visits.map((v) => v.id)).toEqual(all.slice(2, 10).map((v) => v.id));
    expect(data.plan?.serviceDays).toBe("Monday, Wednesday and Friday");
  });

  it("without a plan: the empty state, and the dashboard card says so", async () => {
    const customer = await createUser(db());
    const data = await load(customer);
    expect(data.plan).toBeNull();
    expect(data.visits).toEqual([]);
    expect(await loadYourPlanCard(customer.id, MONDAY)).toBeNull();
  });

  it("the dashboard card: the plan's name and the next visit that will happen", async () => {
    const { customer, visits } = await customerWithTuesdayPlan();
    expect(await loadYourPlanCard(customer.id, MONDAY)).toMatchObject({
      name: "Weekly Swift Service",
      status: "Active",
      nextVisit: { day: formatVisitDay(visits[0].service_date), startsAt: visits[0].service_date.toISOString() },
    });
    await expectSuccess(await post(customer, { intent: "skip", visitId: visits[1].id }), "Visit skipped");
    // After Tuesday's visit has started, the next one is the 16th (the 9th is skipped).
    const wednesday = new Date("2027-03-03T18:00:00Z");
    expect((await loadYourPlanCard(customer.id, wednesday))?.nextVisit?.day).toBe(
      formatVisitDay(visits[2].service_date),
    );
  });
});

describe("skip and undo", () => {
  it("skips a visit with notice and undoes it, each with its toast", async () => {
    const { customer, plan, visits } = await customerWithTuesdayPlan();
    await expectSuccess(await post(customer, { intent: "skip", visitId: visits[1].id }), "Visit skipped");
    expect((await visitsOf(plan.id))[1]).toMatchObject({ status: "skipped", skip_reason: "customer" });
    let shown = (await load(customer)).visits[1];
    expect(shown).toMatchObject({ status: "skipped", skipReason: "Skipped by you", canUndo: true, canSkip: false });

    await expectSuccess(await post(customer, { intent: "undo-skip", visitId: visits[1].id }), "Skip undone");
    expect((await visitsOf(plan.id))[1]).toMatchObject({ status: "scheduled", skip_reason: null });
    shown = (await load(customer)).visits[1];
    expect(shown).toMatchObject({ status: "scheduled", canSkip: true, canUndo: false });
  });

  it("refuses a skip within the notice with the workflow's words, storing nothing", async () => {
    const { customer, plan, visits } = await customerWithTuesdayPlan();
    const before = await snapshot(plan.id);
    const data = await expectRefusal(
      await post(customer, { intent: "skip", visitId: visits[0].id }),
      409,
      "Visits can be changed up to 24 hours before they start.",
    );
    expect(data.toast.message).toBe("Visit not skipped");
    expect(data.visitId).toBe(visits[0].id);
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it("refuses an undo once the notice has passed, storing nothing", async () => {
    const { customer, plan, visits } = await customerWithTuesdayPlan();
    await expectSuccess(await post(customer, { intent: "skip", visitId: visits[1].id }), "Visit skipped");
    const late = new Date("2027-03-08T17:00:00Z"); // Monday 09:00: 23 hours before the visit
    expect((await load(customer, late)).visits[0]).toMatchObject({ canUndo: false, locked: true });
    const before = await snapshot(plan.id);
    await expectRefusal(
      await post(customer, { intent: "undo-skip", visitId: visits[1].id }, late),
      409,
      "Visits can be changed up to 24 hours before they start.",
    );
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it("offers no 'Undo skip' for a skip inside a later pause, and refuses one posted anyway", async () => {
    const { customer, plan, visits } = await customerWithTuesdayPlan();
    await expectSuccess(await post(customer, { intent: "skip", visitId: visits[1].id }), "Visit skipped");
    await expectSuccess(
      await post(customer, { intent: "pause", planId: plan.id, from: "2027-03-08", until: "2027-03-21" }),
      "Service paused",
    );
    expect((await load(customer)).visits[1]).toMatchObject({ status: "skipped", canUndo: false, canSkip: false });
    const before = await snapshot(plan.id);
    await expectRefusal(
      await post(customer, { intent: "undo-skip", visitId: visits[1].id }),
      409,
      "This visit falls within your pause. Resume your service first, then undo the skip.",
    );
    expect(await snapshot(plan.id)).toEqual(before);
    // After "Resume now" the customer's own skip is theirs to undo again.
    await expectSuccess(await post(customer, { intent: "resume", planId: plan.id }), "Service resumed");
    expect((await load(customer)).visits[1]).toMatchObject({ status: "skipped", canUndo: true });
  });

  it("answers 404 to another customer's visit, and nothing changes", async () => {
    const { plan, visits } = await customerWithTuesdayPlan();
    const { customer: intruder } = await customerWithTuesdayPlan();
    const before = await snapshot(plan.id);
    for (const intent of ["skip", "undo-skip"]) {
      await expectRefusal(
        await post(intruder, { intent, visitId: visits[2].id }),
        404,
        "We could not find that visit.",
      );
    }
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it("answers garbage and missing ids with a message, never a 500, and nothing changes", async () => {
    const { customer, plan } = await customerWithTuesdayPlan();
    const before = await snapshot(plan.id);
    for (const visitId of ["not-a-uuid", "1 or 1=1", "../../etc/passwd", "00000000-0000-4000-8000-000000000000"]) {
      await expectRefusal(await post(customer, { intent: "skip", visitId }), 404, "We could not find that visit.");
    }
    await expectRefusal(await post(customer, { intent: "skip" }), 400, "Choose a visit to change.");
    await expectRefusal(await post(customer, { intent: "undo-skip", visitId: "" }), 400, "Choose a visit to change.");
    await expectRefusal(await post(customer, { intent: "skip", visitId: "x".repeat(5000) }), 400);
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it("answers a missing or unknown intent, or a body that is not a form, with 400", async () => {
    const { customer, plan, visits } = await customerWithTuesdayPlan();
    const before = await snapshot(plan.id);
    const message = "That form could not be read. Reload the page and try again.";
    await expectRefusal(await post(customer, { visitId: visits[1].id }), 400, message);
    await expectRefusal(await post(customer, { intent: "delete", visitId: visits[1].id }), 400, message);
    const json = new Request(PAGE, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "skip", visitId: visits[1].id }),
    });
    await expectRefusal(await handleYourPlanAction(json, as(customer), MONDAY), 400, message);
    expect(await snapshot(plan.id)).toEqual(before);
  });
});

describe("pause and resume", () => {
  it("pauses two weeks: the visits in them read 'Skipped', 'Paused by customer'; Resume now brings them back", async () => {
    const { customer, plan } = await customerWithTuesdayPlan();
    await expectSuccess(
      await post(customer, { intent: "pause", planId: plan.id, from: "2027-03-08", until: "2027-03-21" }),
      "Service paused",
    );
    let data = await load(customer);
    expect(data.plan).toMatchObject({
      status: { kind: "paused", from: formatPlanDay("2027-03-08"), until: formatPlanDay("2027-03-21") },
      canPause: false,
      canResume: true,
      canCancel: true,
    });
    expect(data.visits.map((v) => [v.status, v.skipReason])).toEqual([
      ["scheduled", null],
      ["skipped", "Paused by customer"],
      ["skipped", "Paused by customer"],
      ["scheduled", null],
    ]);
    // A pause's skip is undone by resuming, not one by one.
    expect(data.visits[1].canUndo).toBe(false);

    await expectSuccess(await post(customer, { intent: "resume", planId: plan.id }), "Service resumed");
    data = await load(customer);
    expect(data.plan?.status).toEqual({ kind: "active" });
    expect(data.visits.every((v) => v.status === "scheduled")).toBe(true);
  });

  it("refuses a pause over the longest pause, in the past, or ending before it starts, on the field, storing nothing", async () => {
    const { customer, plan } = await customerWithTuesdayPlan();
    const before = await snapshot(plan.id);
    const cases: [Record<string, string>, string, string][] = [
      [{ from: "2027-03-08", until: "2027-06-06" }, "until", "A pause can last at most 90 days."],
      [{ from: "2027-02-20", until: "2027-03-10" }, "from", "From cannot be in the past."],
      [{ from: "2027-03-20", until: "2027-03-10" }, "until", "Until must be on or after From."],
      [{ from: "2027-02-30", until: "2027-03-10" }, "from", "From: enter a date."],
      [{ from: "", until: "2027-03-10" }, "from", "From: enter a date."],
      [{ from: "2027-03-10", until: "soon" }, "until", "Until: enter a date."],
      [{ from: "2029-03-10", until: "2029-03-12" }, "from", "From must be within a year from today."],
    ];
    for (const [dates, field, message] of cases) {
      const data = await expectRefusal(await post(customer, { intent: "pause", planId: plan.id, ...dates }), 400);
      expect(data.result).toMatchObject({ error: { [field]: [message] } });
    }
    expect(await snapshot(plan.id)).toEqual(before);
    // 90 days exactly, both counted, is the longest pause.
    await expectSuccess(
      await post(customer, { intent: "pause", planId: plan.id, from: "2027-03-08", until: "2027-06-05" }),
      "Service paused",
    );
  });

  it("answers 404 to another customer's plan id and 400 to a missing one, storing nothing", async () => {
    const { plan } = await customerWithTuesdayPlan();
    const { customer: intruder } = await customerWithTuesdayPlan();
    const before = await snapshot(plan.id);
    const pause = await expectRefusal(
      await post(intruder, { intent: "pause", planId: plan.id, from: "2027-03-08", until: "2027-03-12" }),
      404,
      "We could not find that plan.",
    );
    expect(pause.result).toMatchObject({ error: { "": ["We could not find that plan."] } });
    for (const intent of ["resume", "cancel"]) {
      await expectRefusal(await post(intruder, { intent, planId: plan.id }), 404, "We could not find that plan.");
      await expectRefusal(await post(intruder, { intent, planId: "garbage" }), 404, "We could not find that plan.");
      await expectRefusal(await post(intruder, { intent }), 400, "We could not find that plan.");
    }
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it("refuses Resume now on a plan that is not paused, storing nothing", async () => {
    const { customer, plan } = await customerWithTuesdayPlan();
    const before = await snapshot(plan.id);
    await expectRefusal(await post(customer, { intent: "resume", planId: plan.id }), 409, "This plan is not paused.");
    expect(await snapshot(plan.id)).toEqual(before);
  });
});

describe("cancel", () => {
  it("keeps the reason and the note the customer gave (decision 130); none given is fine", async () => {
    const { customer, plan } = await customerWithTuesdayPlan();
    const response = await post(customer, {
      intent: "cancel",
      planId: plan.id,
      cancelReason: "moved",
      cancelNote: "  Moving to Reno  ",
    });
    await expectSuccess(response, "Plan cancelled");
    const stored = await db()
      .selectFrom("customer_plans")
      .select(["status", "cancel_reason", "cancel_note"])
      .where("id", "=", plan.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: "cancelled", cancel_reason: "moved", cancel_note: "Moving to Reno" });

    const other = await customerWithTuesdayPlan();
    await expectSuccess(await post(other.customer, { intent: "cancel", planId: other.plan.id }), "Plan cancelled");
    expect(
      await db()
        .selectFrom("customer_plans")
        .select(["cancel_reason", "cancel_note"])
        .where("id", "=", other.plan.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ cancel_reason: null, cancel_note: null });
  });

  it("refuses a reason outside the list, or a note too long, and cancels nothing", async () => {
    const { customer, plan } = await customerWithTuesdayPlan();
    const forms: Record<string, string>[] = [
      { cancelReason: "=cmd|calc" },
      { cancelReason: "price", cancelNote: "x".repeat(501) },
    ];
    for (const form of forms) {
      await expectRefusal(await post(customer, { intent: "cancel", planId: plan.id, ...form }), 400);
    }
    const stored = await db()
      .selectFrom("customer_plans")
      .select(["status", "cancel_reason", "cancel_note"])
      .where("id", "=", plan.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: "active", cancel_reason: null, cancel_note: null });
  });

  it("cancels: 'Cancelled' with the last visit day; the visits after the notice are cancelled; nothing more to change", async () => {
    const { customer, plan, visits } = await customerWithTuesdayPlan();
    await expectSuccess(await post(customer, { intent: "cancel", planId: plan.id }), "Plan cancelled");
    const data = await load(customer, MONDAY, `${PAGE}?cancel=confirm`);
    // Tuesday's visit is within the notice: it still happens, and it is the last.
    expect(data.plan).toMatchObject({
      status: { kind: "cancelled", lastVisit: formatPlanDay(visits[0].day) },
      canPause: false,
      canResume: false,
      canCancel: false,
    });
    expect(data.confirmCancel).toBe(false);
    expect(data.visits.map((v) => v.id)).toEqual([visits[0].id]);
    expect((await visitsOf(plan.id)).map((v) => v.status)).toEqual([
      "scheduled",
      "cancelled",
      "cancelled",
      "cancelled",
    ]);
    expect(await loadYourPlanCard(customer.id, MONDAY)).toMatchObject({ status: "Cancelled" });

    // A second cancel, or any change, is refused.
    const before = await snapshot(plan.id);
    await expectRefusal(
      await post(customer, { intent: "cancel", planId: plan.id }),
      409,
      "This plan is already cancelled.",
    );
    await expectRefusal(
      await post(customer, { intent: "pause", planId: plan.id, from: "2027-03-08", until: "2027-03-12" }),
      409,
      "This plan is cancelled.",
    );
    expect(await snapshot(plan.id)).toEqual(before);
  });

  it("shows what comes back before cancelling, and the cancellation gives exactly that as credit on file (decision 115)", async () => {
    const { customer, plan } = await customerWithTuesdayPlan();
    // Not billed yet: nothing paid for to give back.
    expect((await load(customer)).cancelCredit).toEqual({ amount: null, visits: 0, pays: null, bills: null });
    // March billed (the bundled catalogue's price): five Tuesdays, four of them after the notice.
    await runBilling({ now: MONDAY, db: db() });
    const invoice = await db()
      .selectFrom("invoices")
      .selectAll()
      .where("plan_id", "=", plan.id)
      .executeTakeFirstOrThrow();
    const rate = Math.floor((2 * invoice.total_cents + 5) / 10);
    const data = await load(customer, MONDAY, `${PAGE}?cancel=confirm`);
    expect(data.cancelCredit).toEqual({
      amount: formatCents(4 * rate),
      visits: 4,
      pays: formatCents(Math.min(invoice.total_cents, 4 * rate)),
      bills: null,
    });

    const response = await post(customer, { intent: "cancel", planId: plan.id });
    expect(response.status).toBe(302);
    const toast = await toastOf(response);
    expect(toast).toMatchObject({ type: "success", message: "Plan cancelled" });
    expect(toast?.description).toContain(`${formatCents(4 * rate)} back as credit on file.`);
    const notes = await db().selectFrom("credit_notes").selectAll().where("customer_id", "=", customer.id).execute();
    expect(notes.map((note) => [note.reason, note.amount_cents])).toEqual([["cancellation", 4 * rate]]);
    expect((await load(customer)).cancelCredit).toBeNull();
  });
});
