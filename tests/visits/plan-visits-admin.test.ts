import { sql } from "kysely";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute } from "../helpers/route-calls";
import type { SkipReason, VisitStatus } from "../../db/schema";
import { LEFT_PLAN_DETAIL } from "~/features/plans/plan-constants";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { applyVisitAction } from "~/features/visits/visit-workflow.server";
import { updateVisitStatus } from "~/models/visit.server";
import { loader as customersLoader } from "~/routes/admin-dashboard.customers._index";
import { action as visitAction, loader as visitLoader } from "~/routes/admin-dashboard.visits.$visitId";
import { loader as listLoader } from "~/routes/admin-dashboard.visits._index";
import { loader as todayLoader } from "~/routes/admin-dashboard.visits.today";

/**
 * Issue 25, items 3 and 5 (the admin's side of visits made from plans): a visit an admin moves,
 * skips or cancels by hand leaves its plan; the visit page and the lists say which visits come
 * from a plan and why a visit was skipped; the Customers list shows each customer's plan and
 * finds the customers without one (decision 094).
 */

const database = useAppDatabase();
const db = () => database.current.db;

let admin: TestUser;
let customer: TestUser;
let adminCookie: string;
let planId: string;

async function planFor(
  customerId: string,
  values: { status?: "active" | "paused" | "cancelled"; weekdays?: number[]; name?: string } = {},
) {
  const status = values.status ?? "active";
  const weekdays = values.weekdays ?? [2];
  const row = await db()
    .insertInto("customer_plans")
    .values({
      customer_id: customerId,
      catalogue_plan_id: "plan-weekly",
      catalogue_plan_name: values.name ?? "Weekly Swift Service",
      visits_per_week: weekdays.length,
      weekdays,
      dog_count: 1,
      yard_size: "medium",
      start_date: "2031-01-07",
      status,
      paused_from: status === "paused" ? "2031-02-04" : null,
      paused_until: status === "paused" ? "2031-02-18" : null,
      cancelled_at: status === "cancelled" ? new Date() : null,
      last_visit_date: status === "cancelled" ? "2031-01-28" : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

let slot = 0;
/** A visit; `plan: true` makes it one of the plan's, on a slot of its own. */
async function visitRow(
  options: { plan?: boolean; status?: VisitStatus; at?: Date; skipReason?: SkipReason; leftAt?: Date } = {},
) {
  slot += 1;
  return db()
    .insertInto("services")
    .values({
      customer_id: customer.id,
      service_type: "Weekly Service",
      service_date: options.at ?? new Date(Date.now() + 3600_000),
      status: options.status ?? "scheduled",
      plan_id: options.plan ? planId : null,
      plan_slot: options.plan ? addDays("2031-01-07", 7 * slot) : null,
      skip_reason: options.skipReason ?? null,
      plan_left_at: options.leftAt ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const read = (visitId: string) =>
  db().selectFrom("services").selectAll().where("id", "=", visitId).executeTakeFirstOrThrow();
const eventsOf = (visitId: string) =>
  db()
    .selectFrom("service_events")
    .select(["kind", "detail", "actor_id"])
    .where("service_id", "=", visitId)
    .orderBy("kind")
    .execute();
const post = (visitId: string, form: Record<string, string>) =>
  callRoute(visitAction, `/admin-dashboard/visits/${visitId}`, { cookie: adminCookie, params: { visitId }, form });

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  customer = await createUser(db(), { fullName: "Pia Planholder", email: "pia@plans.example" });
  adminCookie = await sessionCookieFor(admin.id);
  planId = await planFor(customer.id);
});

beforeEach(async () => {
  await db().deleteFrom("outbox").execute();
  await db().deleteFrom("services").execute();
});

describe("a visit an admin changes by hand leaves its plan", () => {
  const NOW = new Date("2031-03-04T16:00:00.000Z");

  test("reschedule: plan_left_at is now, and one history line says so, in the same change", async () => {
    const visit = await visitRow({ plan: true });
    const result = await applyVisitAction(
      visit.id,
      { action: "reschedule", serviceDate: new Date("2031-03-06T17:00:00.000Z") },
      admin.id,
      NOW,
    );
    expect(result.kind).toBe("done");
    const after = await read(visit.id);
    expect(after.plan_left_at?.toISOString()).toBe(NOW.toISOString());
    expect(after.plan_id).toBe(planId);
    expect(after.plan_slot).toBe(visit.plan_slot);
    expect(after.service_date.toISOString()).toBe("2031-03-06T17:00:00.000Z");
    expect(await eventsOf(visit.id)).toEqual([
      { kind: "left_plan", detail: LEFT_PLAN_DETAIL, actor_id: admin.id },
      { kind: "rescheduled", detail: expect.stringMatching(/^From /), actor_id: admin.id },
    ]);
  });

  test("through the page: Cancel Visit leaves the plan; the page says it no longer follows it", async () => {
    const visit = await visitRow({ plan: true });
    const response = await post(visit.id, { intent: "cancel" });
    expect(response.status).toBe(302);
    const after = await read(visit.id);
    expect(after.status).toBe("cancelled");
    expect(after.plan_left_at).not.toBeNull();
    expect(after.skip_reason).toBeNull();
    expect((await eventsOf(visit.id)).map((e) => e.kind)).toEqual(["left_plan", "status"]);
    const page = await (
      await callRoute(visitLoader, `/admin-dashboard/visits/${visit.id}`, {
        cookie: adminCookie,
        params: { visitId: visit.id },
      })
    ).json();
    expect(page.visit.plan).toEqual({
      name: "Weekly Swift Service",
      href: `/admin-dashboard/customers/${customer.id}#plan`,
      followsPlan: false,
    });
    expect(page.history.map((h: { what: string }) => h.what)).toContain(LEFT_PLAN_DETAIL);
  });

  test("Skip Visit leaves the plan and records the admin as the reason", async () => {
    const visit = await visitRow({ plan: true });
    expect((await post(visit.id, { intent: "skip" })).status).toBe(302);
    const after = await read(visit.id);
    expect(after).toMatchObject({ status: "skipped", skip_reason: "admin" });
    expect(after.plan_left_at).not.toBeNull();
    const page = await (
      await callRoute(visitLoader, `/admin-dashboard/visits/${visit.id}`, {
        cookie: adminCookie,
        params: { visitId: visit.id },
      })
    ).json();
    expect(page.visit.skipReason).toBe("Skipped by admin");
  });

  test("an admin's skip of a visit made by hand gets the reason too, and no plan", async () => {
    const visit = await visitRow();
    expect((await post(visit.id, { intent: "skip" })).status).toBe(302);
    const after = await read(visit.id);
    expect(after).toMatchObject({ status: "skipped", skip_reason: "admin", plan_id: null, plan_left_at: null });
    expect((await eventsOf(visit.id)).map((e) => e.kind)).toEqual(["status"]);
  });

  test.each(["complete", "miss"] as const)("%s is an outcome: the visit stays on its plan", async (action) => {
    const visit = await visitRow({ plan: true });
    const input = action === "miss" ? { action, reason: "locked_gate" as const } : { action };
    expect((await applyVisitAction(visit.id, input, admin.id, NOW)).kind).toBe("done");
    const after = await read(visit.id);
    expect(after.plan_left_at).toBeNull();
    expect(after.plan_id).toBe(planId);
    expect((await eventsOf(visit.id)).map((e) => e.kind)).not.toContain("left_plan");
  });

  test("reopening a completed plan visit keeps it on the plan", async () => {
    const visit = await visitRow({ plan: true, status: "completed" });
    expect((await post(visit.id, { intent: "reopen" })).status).toBe(302);
    expect((await read(visit.id)).plan_left_at).toBeNull();
  });

  test("a visit that left already keeps its first time, and no second line is written", async () => {
    const first = new Date("2031-03-01T16:00:00.000Z");
    const visit = await visitRow({ plan: true, leftAt: first });
    await applyVisitAction(
      visit.id,
      { action: "reschedule", serviceDate: new Date("2031-03-07T17:00:00.000Z") },
      admin.id,
      NOW,
    );
    expect((await read(visit.id)).plan_left_at?.toISOString()).toBe(first.toISOString());
    expect((await eventsOf(visit.id)).map((e) => e.kind)).toEqual(["rescheduled"]);
  });

  test("two admins moving it at once: it leaves once, with one history line", async () => {
    const visit = await visitRow({ plan: true });
    const move = (iso: string, now: Date) =>
      applyVisitAction(visit.id, { action: "reschedule", serviceDate: new Date(iso) }, admin.id, now);
    const results = await Promise.all([
      move("2031-03-06T17:00:00.000Z", NOW),
      move("2031-03-07T17:00:00.000Z", new Date(NOW.getTime() + 1)),
    ]);
    expect(results.map((r) => r.kind)).toEqual(["done", "done"]);
    const events = await eventsOf(visit.id);
    expect(events.filter((e) => e.kind === "left_plan")).toHaveLength(1);
    expect(events.filter((e) => e.kind === "rescheduled")).toHaveLength(2);
    expect((await read(visit.id)).plan_left_at).not.toBeNull();
  });

  test("a visit made by hand never gets plan_left_at", async () => {
    const visit = await visitRow();
    await applyVisitAction(
      visit.id,
      { action: "reschedule", serviceDate: new Date("2031-03-07T17:00:00.000Z") },
      admin.id,
      NOW,
    );
    expect((await read(visit.id)).plan_left_at).toBeNull();
    expect((await eventsOf(visit.id)).map((e) => e.kind)).toEqual(["rescheduled"]);
  });

  test("a refused change (409) leaves the plan alone and writes nothing", async () => {
    const visit = await visitRow({ plan: true, status: "completed" });
    const response = await post(visit.id, { intent: "reschedule", serviceDate: "2031-05-02T10:00" });
    expect(response.status).toBe(409);
    const after = await read(visit.id);
    expect(after.plan_left_at).toBeNull();
    expect(after.updated_at.getTime()).toBe(visit.updated_at.getTime());
    expect(await eventsOf(visit.id)).toEqual([]);
  });

  test("any status change away from skipped clears skip_reason", async () => {
    const visit = await visitRow({ plan: true, status: "skipped", skipReason: "customer" });
    const undone = await updateVisitStatus(db(), visit.id, ["skipped"], "scheduled");
    expect(undone).toMatchObject({ status: "scheduled", skip_reason: null });
    const kept = await updateVisitStatus(db(), visit.id, ["scheduled"], "skipped", { skip_reason: "paused" });
    expect(kept).toMatchObject({ status: "skipped", skip_reason: "paused" });
    const cancelled = await updateVisitStatus(db(), visit.id, ["skipped"], "cancelled");
    expect(cancelled).toMatchObject({ status: "cancelled", skip_reason: null });
  });
});

describe("the visit page and the lists say which visits come from a plan", () => {
  const today = businessToday();
  const at = (minutes: number) => new Date(startOfBusinessDay(today)!.getTime() + minutes * 60_000);

  test("the page: the plan's name, linked to the plan on the customer's page", async () => {
    const visit = await visitRow({ plan: true });
    const page = await (
      await callRoute(visitLoader, `/admin-dashboard/visits/${visit.id}`, {
        cookie: adminCookie,
        params: { visitId: visit.id },
      })
    ).json();
    expect(page.visit.plan).toEqual({
      name: "Weekly Swift Service",
      href: `/admin-dashboard/customers/${customer.id}#plan`,
      followsPlan: true,
    });
    expect(page.visit.skipReason).toBeNull();
    const byHand = await visitRow();
    const plain = await (
      await callRoute(visitLoader, `/admin-dashboard/visits/${byHand.id}`, {
        cookie: adminCookie,
        params: { visitId: byHand.id },
      })
    ).json();
    expect(plain.visit.plan).toBeNull();
  });

  test("Visits and Today: a Plan marker and a skipped visit's reason", async () => {
    const fromPlan = await visitRow({ plan: true, at: at(60) });
    const paused = await visitRow({ plan: true, at: at(120), status: "skipped", skipReason: "paused" });
    const overdue = await visitRow({ plan: true, at: at(180), status: "skipped", skipReason: "payment_overdue" });
    const byCustomer = await visitRow({ plan: true, at: at(240), status: "skipped", skipReason: "customer" });
    const byHand = await visitRow({ at: at(300) });
    const expected = [
      { id: fromPlan.id, fromPlan: true, skipReason: null },
      { id: paused.id, fromPlan: true, skipReason: "Paused by customer" },
      { id: overdue.id, fromPlan: true, skipReason: "Payment overdue" },
      { id: byCustomer.id, fromPlan: true, skipReason: "Skipped by customer" },
      { id: byHand.id, fromPlan: false, skipReason: null },
    ];
    const list = await (
      await callRoute(listLoader, `/admin-dashboard/visits?from=${today}&to=${today}`, { cookie: adminCookie })
    ).json();
    expect(
      list.visits.map(({ id, fromPlan, skipReason }: Record<string, unknown>) => ({ id, fromPlan, skipReason })),
    ).toEqual(expected);
    const todayPage = await (
      await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: adminCookie })
    ).json();
    // Today is a route (decision 093): its stops first (the yard has no location, so in time
    // order), then the skipped visits, which are not stops, in time order.
    expect(
      todayPage.visits.map(({ id, fromPlan, skipReason }: Record<string, unknown>) => ({ id, fromPlan, skipReason })),
    ).toEqual([expected[0], expected[4], expected[1], expected[2], expected[3]]);
  });

  test("the skipped filter pages with the reason", async () => {
    for (let i = 0; i < 3; i++)
      await visitRow({ plan: true, at: at(10 + i), status: "skipped", skipReason: "customer" });
    await visitRow({ plan: true, at: at(20) });
    const list = await (
      await callRoute(listLoader, `/admin-dashboard/visits?from=${today}&to=${today}&status=skipped`, {
        cookie: adminCookie,
      })
    ).json();
    expect(list.visits.map((v: { skipReason: string }) => v.skipReason)).toEqual(Array(3).fill("Skipped by customer"));
  });
});

describe("the Customers list: each customer's plan, and the customers without one", () => {
  type Row = { email: string; plan: string | null };
  const customers = async (query: string) => {
    const response = await callRoute(customersLoader, `/admin-dashboard/customers?${query}`, { cookie: adminCookie });
    return {
      status: response.status,
      data: (await response.json()) as { customers: Row[]; next: string | null; noPlan: boolean },
    };
  };

  test("each row says the open plan and its days, Paused while paused, or No plan (null)", async () => {
    const tue = await createUser(db(), { email: "list-a-tue@plans.example" });
    const twice = await createUser(db(), { email: "list-b-twice@plans.example" });
    const paused = await createUser(db(), { email: "list-c-paused@plans.example" });
    const cancelled = await createUser(db(), { email: "list-d-cancelled@plans.example" });
    const none = await createUser(db(), { email: "list-e-none@plans.example" });
    await planFor(tue.id);
    await planFor(twice.id, { weekdays: [2, 4], name: "Twice-Weekly Swift Service" });
    await planFor(paused.id, { status: "paused", weekdays: [1] });
    await planFor(cancelled.id, { status: "cancelled" });
    const { status, data } = await customers("q=list-");
    expect(status).toBe(200);
    expect(data.customers.map(({ email, plan }) => ({ email, plan }))).toEqual([
      { email: tue.email, plan: "Weekly Swift Service · Tuesday" },
      { email: twice.email, plan: "Twice-Weekly Swift Service · Tuesday and Thursday" },
      { email: paused.email, plan: "Weekly Swift Service · Monday · Paused" },
      { email: cancelled.email, plan: null },
      { email: none.email, plan: null },
    ]);
    const noPlan = await customers("q=list-&plan=none");
    expect(noPlan.data.noPlan).toBe(true);
    expect(noPlan.data.customers.map((c) => c.email)).toEqual([cancelled.email, none.email]);
  });

  test("No plan follows every plan change: a new plan, a cancel, a deleted plan", async () => {
    const kim = await createUser(db(), { email: "follow-kim@plans.example" });
    const emails = async () => (await customers("q=follow-&plan=none")).data.customers.map((c) => c.email);
    expect(await emails()).toEqual([kim.email]);
    const plan = await planFor(kim.id);
    expect(await emails()).toEqual([]);
    await db().updateTable("customer_plans").set({ notes: "Side gate" }).where("id", "=", plan).execute();
    expect(await emails()).toEqual([]);
    await db()
      .updateTable("customer_plans")
      .set({ status: "cancelled", cancelled_at: new Date(), last_visit_date: "2031-02-04" })
      .where("id", "=", plan)
      .execute();
    expect(await emails()).toEqual([kim.email]);
    const again = await planFor(kim.id, { status: "paused" });
    expect(await emails()).toEqual([]);
    await db().deleteFrom("customer_plans").where("id", "=", again).execute();
    expect(await emails()).toEqual([kim.email]);
  });

  test("No plan pages by keyset (the cursor and the filter travel together), whatever the other rows", async () => {
    // 30 without a plan, 30 with one, interleaved in e-mail order.
    const ids: string[] = [];
    const rows = await sql<{ id: string; email: string }>`insert into users (email)
      select 'page-' || lpad(g::text, 3, '0') || '@plans.example' from generate_series(1, 60) g
      returning id, email`.execute(db());
    for (const row of rows.rows) {
      if (Number(row.email.slice(5, 8)) % 2 === 0) await planFor(row.id);
      else ids.push(row.email);
    }
    const first = await customers("q=page-&plan=none");
    expect(first.status).toBe(200);
    expect(first.data.customers).toHaveLength(25);
    expect(first.data.customers.every((c) => c.plan === null)).toBe(true);
    const second = await customers(`q=page-&plan=none&after=${encodeURIComponent(first.data.next!)}`);
    expect(second.data.next).toBeNull();
    expect([...first.data.customers, ...second.data.customers].map((c) => c.email)).toEqual(ids.sort());
    // Without a search as well (the partial index's walk): only customers without a plan.
    let query = "plan=none";
    const seen: Row[] = [];
    for (let pages = 0; pages < 20; pages++) {
      const page = await customers(query);
      seen.push(...page.data.customers);
      if (!page.data.next) break;
      query = `plan=none&after=${encodeURIComponent(page.data.next)}`;
    }
    const withPlan = await db()
      .selectFrom("customer_plans")
      .innerJoin("users", "users.id", "customer_plans.customer_id")
      .select("users.email")
      .where("customer_plans.status", "<>", "cancelled")
      .execute();
    const seenEmails = seen.map((c) => c.email);
    for (const { email } of withPlan) expect(seenEmails).not.toContain(email);
    expect(seenEmails).toEqual(expect.arrayContaining(ids));
    expect(seenEmails).not.toContain(admin.email);
  });

  test("the filter has its own index: the e-mail order of the customers without a plan (0010)", async () => {
    const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
      where indexname = 'users_without_open_plan_email_idx'`.execute(db());
    expect(rows[0]?.indexdef).toMatch(/\(lower\(email\)\) WHERE \(NOT has_open_plan\)/);
  });

  test("a customer asking for the filter is turned away (the admin's loader runs first)", async () => {
    const cookie = await sessionCookieFor(customer.id);
    const response = await callRoute(customersLoader, "/admin-dashboard/customers?plan=none", { cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/customer-dashboard");
  });

  test("an unknown plan filter is a 400, not a 500", async () => {
    const response = await callRoute(customersLoader, "/admin-dashboard/customers?plan=paused", {
      cookie: adminCookie,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("There is no such plan filter");
  });
});
