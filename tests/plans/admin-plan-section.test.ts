import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { runBilling } from "~/features/billing/billing-run.server";
import { formatCents } from "~/features/billing/money";
import { handleAdminPlanAction, loadAdminPlan, nextWeekday } from "~/features/plans/admin-plan-page.server";
import { businessToday, addDays } from "~/features/visits/visit-dates";
import { action, loader } from "~/routes/admin-dashboard.customers.$customerId";

/**
 * The Plan section of the admin's customer page (issue 25 item 5): each intent of the page's
 * action through the route (the real clock, dates counted from today), and the visits it shows
 * with a fixed clock through the section's own functions.
 */
const database = useAppDatabase();
const db = () => database.current.db;

let admin: TestUser;
let adminCookie: string;

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin.id);
});

type Pairs = [string, string][];

/** Posts the form (repeated names allowed: the service days) to the customer's page. */
function post(customerId: string, pairs: Pairs, cookie = adminCookie) {
  return callRoute(action, `/admin-dashboard/customers/${customerId}`, {
    cookie,
    params: { customerId },
    body: new URLSearchParams(pairs).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
}

async function page(customerId: string) {
  const response = await callRoute(loader, `/admin-dashboard/customers/${customerId}`, {
    cookie: adminCookie,
    params: { customerId },
  });
  expect(response.status).toBe(200);
  return response.json();
}

const today = () => businessToday();
const start = () => nextWeekday(today());

function startForm(overrides: Partial<Record<string, string | string[]>> = {}): Pairs {
  const values: Record<string, string | string[]> = {
    intent: "start-plan",
    cataloguePlanId: "servicePlan.weekly",
    weekdays: ["2"],
    dogCount: "3",
    yardSize: "medium",
    startDate: start(),
    notes: "Side gate",
    ...overrides,
  };
  return Object.entries(values).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
  );
}

/** Rows that a refused post must leave as they were. */
async function snapshot(customerId: string) {
  const plans = await db().selectFrom("customer_plans").selectAll().where("customer_id", "=", customerId).execute();
  const planIds = plans.map((p) => p.id);
  const visits = await db()
    .selectFrom("services")
    .select(["id", "status", "service_date", "skip_reason"])
    .where("customer_id", "=", customerId)
    .orderBy("id")
    .execute();
  const events = planIds.length
    ? await db().selectFrom("customer_plan_events").select("id").where("plan_id", "in", planIds).execute()
    : [];
  const outbox = planIds.length
    ? await db().selectFrom("outbox").select("id").where("related_id", "in", planIds).execute()
    : [];
  return { plans, visits, events: events.length, outbox: outbox.length };
}

async function expectSuccess(response: Response, customerId: string, description: string) {
  expect(response.status).toBe(302);
  expect(locationOf(response)).toBe(`/admin-dashboard/customers/${customerId}#plan`);
  const toast = await toastOf(response);
  expect(toast).toMatchObject({ type: "success", message: "Success", description });
}

/** A refusal: the status, an error toast, the form's messages; never a 500. */
async function refusal(response: Response, status: number) {
  expect(response.status).toBe(status);
  const body = await response.json();
  expect(body.toast).toMatchObject({ type: "error" });
  return body as {
    intent: string;
    toast: { description: string };
    result?: { error?: Record<string, string[] | null> };
  };
}

async function customerWithPlan(name: string) {
  const customer = await createUser(db(), { fullName: name });
  await expectSuccess(await post(customer.id, startForm()), customer.id, "Plan started");
  const plan = await db()
    .selectFrom("customer_plans")
    .selectAll()
    .where("customer_id", "=", customer.id)
    .executeTakeFirstOrThrow();
  return { customer, plan };
}

describe("Start plan", () => {
  it("starts the plan, makes its visits and shows it on the page with its price, days and history", async () => {
    const customer = await createUser(db(), { fullName: "Sam Start" });
    const before = await page(customer.id);
    expect(before.plan.plan).toBeNull();
    // Subscriptions only, with their visits a week; the defaults.
    expect(before.plan.catalogue.map((p: { id: string }) => p.id)).toEqual([
      "servicePlan.weekly",
      "servicePlan.twice-weekly",
      "servicePlan.thrice-weekly",
    ]);
    expect(before.plan.defaults.startDate).toBe(start());

    const response = await post(customer.id, startForm());
    await expectSuccess(response, customer.id, "Plan started");
    const rows = await snapshot(customer.id);
    expect(rows.plans).toHaveLength(1);
    expect(rows.plans[0]).toMatchObject({
      catalogue_plan_id: "servicePlan.weekly",
      catalogue_plan_name: "Weekly Swift Service",
      weekdays: [2],
      dog_count: 3,
      yard_size: "medium",
      start_date: start(),
      notes: "Side gate",
      status: "active",
      created_by: admin.id,
    });
    expect(rows.visits.length).toBeGreaterThanOrEqual(3);
    expect(rows.events).toBe(1);
    expect(rows.outbox).toBe(2);

    const after = await page(customer.id);
    expect(after.plan.plan).toMatchObject({
      name: "Weekly Swift Service",
      days: "Tuesday",
      dogs: 3,
      yardSizeLabel: "Medium (2,000–5,000 sq ft)",
      // $89 from the catalogue + $25 for 3 dogs (the multi-dog add-on), both from Sanity.
      price: "$114/month",
      statusLabel: "Active",
      open: true,
    });
    expect(after.plan.upcoming.length).toBeGreaterThan(0);
    for (const visit of after.plan.upcoming) expect(visit.label).toMatch(/^Tuesday, /);
    expect(after.plan.history).toEqual([
      expect.objectContaining({ who: "Ada Admin", what: "Plan started", detail: expect.stringContaining("Tuesday") }),
    ]);
  });

  it.each([
    [
      "a wrong number of service days",
      { weekdays: ["2", "4"] },
      "weekdays",
      "Weekly Swift Service has 1 visit a week: pick 1 service day.",
    ],
    [
      "a one-time plan",
      { cataloguePlanId: "servicePlan.desert-dash" },
      "cataloguePlanId",
      "Swift Dash is a one-time visit: pick a subscription plan.",
    ],
    ["a plan not in the catalogue", { cataloguePlanId: "servicePlan.nope" }, "cataloguePlanId", "Choose a plan"],
    ["no service day", { weekdays: [] }, "weekdays", "Choose the service days, Monday to Friday"],
    ["a Saturday", { weekdays: ["6"] }, "weekdays", "Choose the service days, Monday to Friday"],
    ["a day twice", { weekdays: ["2", "2"] }, "weekdays", "Choose the service days, Monday to Friday"],
    ["garbage days", { weekdays: ["x"] }, "weekdays", "Choose the service days, Monday to Friday"],
    ["no dogs", { dogCount: "0" }, "dogCount", "Dogs: a whole number from 1 to 20"],
    ["a fraction of a dog", { dogCount: "1.5" }, "dogCount", "Dogs: a whole number from 1 to 20"],
    ["a huge number", { dogCount: "1e308" }, "dogCount", "Dogs: a whole number from 1 to 20"],
    ["an unknown yard size", { yardSize: "huge" }, "yardSize", "Choose a yard size"],
    ["no start date", { startDate: "" }, "startDate", "Enter a date"],
    ["a date that does not exist", { startDate: "2027-02-30" }, "startDate", "Enter a date"],
    ["notes too long", { notes: "x".repeat(1001) }, "notes", "Notes can be at most 1000 characters"],
    ["a NUL in the notes", { notes: "gate\u0000code" }, "notes", "Notes cannot contain that character"],
  ])("refuses %s on its field, and stores nothing", async (_, overrides, field, message) => {
    const customer = await createUser(db());
    const before = await snapshot(customer.id);
    const body = await refusal(await post(customer.id, startForm(overrides)), 400);
    expect(body.intent).toBe("start-plan");
    expect(body.result?.error?.[field]).toEqual([message]);
    expect(await snapshot(customer.id)).toEqual(before);
  });

  it("refuses a start date in the past with the workflow's words as the form's message", async () => {
    const customer = await createUser(db());
    const body = await refusal(await post(customer.id, startForm({ startDate: addDays(today(), -1) })), 400);
    expect(body.toast.description).toBe("Start date cannot be in the past.");
    expect(body.result?.error?.[""]).toEqual(["Start date cannot be in the past."]);
    expect((await snapshot(customer.id)).plans).toEqual([]);
  });

  it("refuses a second plan while one is open (409), and changes nothing", async () => {
    const { customer } = await customerWithPlan("Olive Open");
    const before = await snapshot(customer.id);
    const body = await refusal(await post(customer.id, startForm({ weekdays: ["3"] })), 409);
    expect(body.toast.description).toBe("This customer already has a plan: change it instead.");
    expect(await snapshot(customer.id)).toEqual(before);
  });
});

describe("Change, Pause, Resume and Cancel", () => {
  it("changes the days from a date, pauses, resumes and cancels, each with its toast and history line", async () => {
    const { customer, plan } = await customerWithPlan("Cory Change");
    const from = addDays(start(), 7);
    await expectSuccess(
      await post(customer.id, [
        ...startForm({ intent: "change-plan", weekdays: ["3"], dogCount: "1", startDate: [] }),
        ["planId", plan.id],
        ["fromDate", from],
      ]),
      customer.id,
      "Plan changed",
    );
    let view = (await page(customer.id)).plan;
    expect(view.plan).toMatchObject({ days: "Wednesday", dogs: 1, price: "$89/month" });
    for (const visit of view.upcoming) {
      const day = businessToday(new Date(visit.at));
      expect(visit.label).toMatch(day < from ? /^Tuesday, / : /^Wednesday, /);
    }

    const pauseFrom = addDays(start(), 7);
    const pauseUntil = addDays(pauseFrom, 13);
    await expectSuccess(
      await post(customer.id, [
        ["intent", "pause-plan"],
        ["planId", plan.id],
        ["from", pauseFrom],
        ["until", pauseUntil],
      ]),
      customer.id,
      "Service paused",
    );
    view = (await page(customer.id)).plan;
    expect(view.plan.statusLabel).toMatch(/^Paused from \w{3} \d{1,2}, \d{4} until \w{3} \d{1,2}, \d{4}$/);
    expect(view.plan.paused).toBe(true);
    const skipped = view.upcoming.filter((v: { statusLabel: string }) => v.statusLabel === "Skipped: paused");
    expect(skipped.length).toBeGreaterThan(0);

    await expectSuccess(
      await post(customer.id, [
        ["intent", "resume-plan"],
        ["planId", plan.id],
      ]),
      customer.id,
      "Service resumed",
    );
    view = (await page(customer.id)).plan;
    expect(view.plan.statusLabel).toBe("Active");
    expect(view.upcoming.every((v: { statusLabel: string }) => v.statusLabel === "Scheduled")).toBe(true);

    await expectSuccess(
      await post(customer.id, [
        ["intent", "cancel-plan"],
        ["planId", plan.id],
      ]),
      customer.id,
      "Plan cancelled",
    );
    view = (await page(customer.id)).plan;
    expect(view.plan).toMatchObject({ open: false, statusLabel: "Cancelled" });
    // Cancelled before its first day: no last visit to name.
    expect(view.plan.lastVisitLabel).toBe("None: cancelled before its first visit");
    expect(view.upcoming).toEqual([]);
    expect(view.history.map((line: { what: string }) => line.what)).toEqual([
      "Plan cancelled",
      "Service resumed",
      "Service paused",
      "Plan changed",
      "Plan started",
    ]);
    const visits = await db()
      .selectFrom("services")
      .select("status")
      .where("plan_id", "=", plan.id)
      .where("service_date", ">", new Date())
      .execute();
    expect(visits.every((v) => v.status === "cancelled")).toBe(true);

    // Cancelled: "Start plan" again.
    await expectSuccess(await post(customer.id, startForm({ weekdays: ["5"] })), customer.id, "Plan started");
    expect((await page(customer.id)).plan.plan).toMatchObject({ days: "Friday", open: true });
  });

  it("refuses a pause over the longest pause and Until before From, and stores nothing", async () => {
    const { customer, plan } = await customerWithPlan("Paula Pause");
    const before = await snapshot(customer.id);
    const tooLong = await refusal(
      await post(customer.id, [
        ["intent", "pause-plan"],
        ["planId", plan.id],
        ["from", start()],
        ["until", addDays(start(), 90)],
      ]),
      400,
    );
    expect(tooLong.toast.description).toBe("A pause can last at most 90 days.");
    expect(tooLong.result?.error?.[""]).toEqual(["A pause can last at most 90 days."]);
    const backwards = await refusal(
      await post(customer.id, [
        ["intent", "pause-plan"],
        ["planId", plan.id],
        ["from", addDays(start(), 7)],
        ["until", start()],
      ]),
      400,
    );
    expect(backwards.result?.error?.until).toEqual(["Until must be on or after From"]);
    expect(await snapshot(customer.id)).toEqual(before);
  });

  it("keeps the reason and note the admin chose on Cancel (decision 130); refuses one outside the list, cancelling nothing", async () => {
    const { customer, plan } = await customerWithPlan("Rhea Reason");
    const before = await snapshot(customer.id);
    const bad = await refusal(
      await post(customer.id, [
        ["intent", "cancel-plan"],
        ["planId", plan.id],
        ["cancelReason", "@evil"],
      ]),
      400,
    );
    expect(bad.toast.description).toBe("Choose one of the reasons given, or none.");
    expect(await snapshot(customer.id)).toEqual(before);
    await post(customer.id, [
      ["intent", "cancel-plan"],
      ["planId", plan.id],
      ["cancelReason", "service"],
      ["cancelNote", "Missed two weeks running"],
    ]);
    expect(
      await db()
        .selectFrom("customer_plans")
        .select(["status", "cancel_reason", "cancel_note"])
        .where("id", "=", plan.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "cancelled", cancel_reason: "service", cancel_note: "Missed two weeks running" });
  });

  it("refuses Resume when not paused and Cancel twice (409), changing nothing", async () => {
    const { customer, plan } = await customerWithPlan("Nora Notpaused");
    const before = await snapshot(customer.id);
    const resume = await refusal(
      await post(customer.id, [
        ["intent", "resume-plan"],
        ["planId", plan.id],
      ]),
      409,
    );
    expect(resume.toast.description).toBe("This plan is not paused.");
    expect(await snapshot(customer.id)).toEqual(before);
    await post(customer.id, [
      ["intent", "cancel-plan"],
      ["planId", plan.id],
    ]);
    const cancelled = await snapshot(customer.id);
    const again = await refusal(
      await post(customer.id, [
        ["intent", "cancel-plan"],
        ["planId", plan.id],
      ]),
      409,
    );
    expect(again.toast.description).toBe("This plan is already cancelled.");
    expect(await snapshot(customer.id)).toEqual(cancelled);
  });
});

describe("someone else's plan, garbage, and pages that are not a customer's", () => {
  it("answers 404 to another customer's plan id on every plan form, and nothing changes", async () => {
    const { customer: owner, plan } = await customerWithPlan("Owen Owner");
    const other = await createUser(db(), { fullName: "Ivy Intruder" });
    const before = [await snapshot(owner.id), await snapshot(other.id)];
    const attempts: Pairs[] = [
      [
        ...startForm({ intent: "change-plan", weekdays: ["4"], startDate: [] }),
        ["planId", plan.id],
        ["fromDate", start()],
      ],
      [
        ["intent", "pause-plan"],
        ["planId", plan.id],
        ["from", start()],
        ["until", addDays(start(), 6)],
      ],
      [
        ["intent", "resume-plan"],
        ["planId", plan.id],
      ],
      [
        ["intent", "cancel-plan"],
        ["planId", plan.id],
      ],
    ];
    for (const pairs of attempts) {
      const body = await refusal(await post(other.id, pairs), 404);
      expect(body.toast.description).toBe("We could not find that plan.");
    }
    expect([await snapshot(owner.id), await snapshot(other.id)]).toEqual(before);
  });

  it("answers garbage with a clear message and never a 500", async () => {
    const { customer, plan } = await customerWithPlan("Gary Garbage");
    const before = await snapshot(customer.id);
    for (const planId of ["", "1 or 1=1", "00000000-0000-4000-8000-000000000000", "x".repeat(500)]) {
      const body = await refusal(
        await post(customer.id, [
          ["intent", "cancel-plan"],
          ["planId", planId],
        ]),
        404,
      );
      expect(body.toast.description).toBe("We could not find that plan.");
    }
    const unknown = await refusal(await post(customer.id, [["intent", "drop-table"]]), 400);
    expect(unknown.toast.description).toBe("Unknown action");
    const garbled = await refusal(
      await post(customer.id, [
        ["intent", "change-plan"],
        ["planId", plan.id],
        ["cataloguePlanId", "\u0000"],
        ["weekdays", "Tuesday"],
        ["dogCount", "many"],
        ["yardSize", ""],
        ["fromDate", "tomorrow"],
      ]),
      400,
    );
    // The catalogue plan is checked once the fields parse.
    expect(Object.keys(garbled.result?.error ?? {}).sort()).toEqual(["dogCount", "fromDate", "weekdays", "yardSize"]);
    const notForm = await callRoute(action, `/admin-dashboard/customers/${customer.id}`, {
      cookie: adminCookie,
      params: { customerId: customer.id },
      body: "{not a form",
      headers: { "Content-Type": "application/json" },
    });
    expect(notForm.status).toBeGreaterThanOrEqual(400);
    expect(notForm.status).toBeLessThan(500);
    expect(await snapshot(customer.id)).toEqual(before);
  });

  it("answers 404 for an id in the URL that is not a customer, and stores nothing", async () => {
    for (const id of [admin.id, "00000000-0000-4000-8000-000000000000", "nope"]) {
      const response = await post(id, startForm());
      expect(response.status).toBe(404);
    }
    expect((await snapshot(admin.id)).plans).toEqual([]);
  });
});

describe("the section with a fixed clock", () => {
  // Monday 1 March 2027, 10:00 in Las Vegas: no closed day in the four weeks after.
  const MONDAY = new Date("2027-03-01T18:00:00Z");

  it("lists the next Tuesdays at the first visit time, and Wednesdays from the change's date", async () => {
    const customer = await createUser(db(), { fullName: "Tess Tuesday" });
    const admin2 = { id: admin.id, name: "Ada Admin" };
    const form = (pairs: Pairs) => {
      const data = new FormData();
      for (const [name, value] of pairs) data.append(name, value);
      return data;
    };
    const started = await handleAdminPlanAction(
      "start-plan",
      form(startForm({ startDate: "2027-03-02", dogCount: "1" })),
      { customerId: customer.id, admin: admin2, now: MONDAY },
    );
    expect(started.status).toBe(302);
    let view = await loadAdminPlan(customer.id, MONDAY);
    expect(view.defaults.startDate).toBe("2027-03-02");
    expect(view.upcoming.map((v) => v.label)).toEqual([
      "Tuesday, Mar 2, 2027, 8:00 AM",
      "Tuesday, Mar 9, 2027, 8:00 AM",
      "Tuesday, Mar 16, 2027, 8:00 AM",
      "Tuesday, Mar 23, 2027, 8:00 AM",
    ]);
    const changed = await handleAdminPlanAction(
      "change-plan",
      form([
        ...startForm({ intent: "change-plan", weekdays: ["3"], startDate: [] }),
        ["planId", view.plan!.id],
        ["fromDate", "2027-03-10"],
      ]),
      { customerId: customer.id, admin: admin2, now: MONDAY },
    );
    expect(changed.status).toBe(302);
    view = await loadAdminPlan(customer.id, MONDAY);
    expect(view.upcoming.map((v) => v.label)).toEqual([
      "Tuesday, Mar 2, 2027, 8:00 AM",
      "Tuesday, Mar 9, 2027, 8:00 AM",
      "Wednesday, Mar 10, 2027, 8:00 AM",
      "Wednesday, Mar 17, 2027, 8:00 AM",
      "Wednesday, Mar 24, 2027, 8:00 AM",
    ]);
    // Cancelled on Wednesday 3 March at 10:00, after Tuesday's visit: its last visit.
    const WEDNESDAY = new Date("2027-03-03T18:00:00Z");
    const cancelled = await handleAdminPlanAction(
      "cancel-plan",
      form([
        ["intent", "cancel-plan"],
        ["planId", view.plan!.id],
      ]),
      { customerId: customer.id, admin: admin2, now: WEDNESDAY },
    );
    expect(cancelled.status).toBe(302);
    view = await loadAdminPlan(customer.id, WEDNESDAY);
    expect(view.plan).toMatchObject({ statusLabel: "Cancelled", lastVisitLabel: "Mar 2, 2027", open: false });
    expect(view.upcoming).toEqual([]);
  });

  it("shows what Cancel plan gives back now, as an admin cancels (from now, not the notice), and the cancellation gives it", async () => {
    const customer = await createUser(db(), { fullName: "Carla Cancel" });
    const admin2 = { id: admin.id, name: "Ada Admin" };
    const form = (pairs: Pairs) => {
      const data = new FormData();
      for (const [name, value] of pairs) data.append(name, value);
      return data;
    };
    await handleAdminPlanAction("start-plan", form(startForm({ startDate: "2027-03-02", dogCount: "1" })), {
      customerId: customer.id,
      admin: admin2,
      now: MONDAY,
    });
    await runBilling({ now: MONDAY, db: db() });
    const invoice = await db()
      .selectFrom("invoices")
      .selectAll()
      .where("customer_id", "=", customer.id)
      .executeTakeFirstOrThrow();
    // From now on: the visits of 9, 16, 23 and 30 March; 2 March is 22 hours away, too late.
    const rate = Math.floor((2 * invoice.total_cents + 5) / 10);
    const view = await loadAdminPlan(customer.id, MONDAY);
    expect(view.plan?.cancelCredit).toMatchObject({ amount: formatCents(4 * rate), visits: 4 });
    const cancelled = await handleAdminPlanAction("cancel-plan", form([["planId", view.plan!.id]]), {
      customerId: customer.id,
      admin: admin2,
      now: MONDAY,
    });
    expect(cancelled.status).toBe(302);
    const notes = await db().selectFrom("credit_notes").selectAll().where("customer_id", "=", customer.id).execute();
    expect(notes.map((note) => note.amount_cents)).toEqual([4 * rate]);
    expect((await loadAdminPlan(customer.id, MONDAY)).plan?.cancelCredit).toBeNull();
  });
});
