import { sql } from "kysely";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import type { VisitStatus } from "../../db/schema";
import { VISIT_STATUSES } from "~/features/visits/visit-constants";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { isAllowed, VISIT_ACTION_NAMES, VISIT_ACTIONS, type VisitAction } from "~/features/visits/visit-transitions";
import { action as visitAction, loader as visitLoader } from "~/routes/admin-dashboard.visits.$visitId";
import { loader as listLoader } from "~/routes/admin-dashboard.visits._index";
import { handle as todayHandle, loader as todayLoader, TODAY_PAGE_SIZE } from "~/routes/admin-dashboard.visits.today";
import { isStaticPageHandle } from "~/utils/static-page";

const database = useAppDatabase();
const db = () => database.current.db;

let admin: TestUser;
let customer: TestUser;
let adminCookie: string;
let customerCookie: string;

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  customer = await createUser(db(), { fullName: "Carla Customer" });
  adminCookie = await sessionCookieFor(admin.id);
  customerCookie = await sessionCookieFor(customer.id);
});

beforeEach(async () => {
  await db().deleteFrom("outbox").execute();
  await db().deleteFrom("services").execute();
});

async function visitRow(status: VisitStatus = "scheduled", at = new Date(Date.now() + 3600_000)) {
  return db()
    .insertInto("services")
    .values({ customer_id: customer.id, service_type: "Weekly Service", service_date: at, status })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const FIELDS: Record<VisitAction, Record<string, string>> = {
  complete: {},
  miss: { reason: "locked_gate" },
  skip: {},
  cancel: {},
  reschedule: { serviceDate: "2031-05-02T10:00" },
  "return-visit": { serviceDate: "2031-05-03T10:00" },
  reopen: {},
};

const post = (visitId: string, form: Record<string, string>, cookie = adminCookie) =>
  callRoute(visitAction, `/admin-dashboard/visits/${visitId}`, { cookie, params: { visitId }, form });

describe("every status transition pair", () => {
  for (const action of VISIT_ACTION_NAMES) {
    for (const status of VISIT_STATUSES) {
      const allowed = isAllowed(action, status);
      test(`${action} on a ${status} visit: ${allowed ? "allowed" : "409"}`, async () => {
        const visit = await visitRow(status);
        const response = await post(visit.id, { intent: action, ...FIELDS[action] });
        const after = await db()
          .selectFrom("services")
          .selectAll()
          .where("id", "=", visit.id)
          .executeTakeFirstOrThrow();
        const events = await db().selectFrom("service_events").selectAll().where("service_id", "=", visit.id).execute();
        if (allowed) {
          expect(response.status).toBe(302);
          expect(locationOf(response)).toBe(`/admin-dashboard/visits/${visit.id}`);
          expect((await toastOf(response))?.type).toBe("success");
          expect(after.status).toBe(VISIT_ACTIONS[action].to);
          expect(events.length).toBeGreaterThan(0);
        } else {
          expect(response.status).toBe(409);
          const data = await response.json();
          expect(data.toast).toEqual({ type: "error", message: "Error", description: "That change is not allowed" });
          expect(after.status).toBe(status);
          expect(after.updated_at.getTime()).toBe(visit.updated_at.getTime());
          expect(events).toHaveLength(0);
          expect(await db().selectFrom("services").select("id").execute()).toHaveLength(1);
        }
      });
    }
  }
});

describe("the visit page's actions", () => {
  test.each([
    ["complete", "Visit marked completed"],
    ["miss", "Visit marked missed"],
    ["reschedule", "Visit rescheduled"],
  ] as const)("%s answers the issue's toast", async (action, description) => {
    const visit = await visitRow();
    const response = await post(visit.id, { intent: action, ...FIELDS[action] });
    expect(await toastOf(response)).toMatchObject({ type: "success", message: "Success", description });
  });

  test("reschedule keeps it scheduled at the new time, in the business's time zone", async () => {
    const visit = await visitRow();
    await post(visit.id, { intent: "reschedule", serviceDate: "2031-05-02T10:00" });
    const after = await db().selectFrom("services").selectAll().where("id", "=", visit.id).executeTakeFirstOrThrow();
    expect(after.status).toBe("scheduled");
    expect(after.service_date.toISOString()).toBe("2031-05-02T17:00:00.000Z");
  });

  test("a missed visit records its reason; Other needs its text (400, nothing changed)", async () => {
    const visit = await visitRow();
    const refused = await post(visit.id, { intent: "miss", reason: "other", reasonText: "" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).result.error.reasonText).toEqual(["Say what happened"]);
    const noReason = await post(visit.id, { intent: "miss" });
    expect(noReason.status).toBe(400);
    expect(
      (await db().selectFrom("services").select("status").where("id", "=", visit.id).executeTakeFirstOrThrow()).status,
    ).toBe("scheduled");
    const done = await post(visit.id, { intent: "miss", reason: "other", reasonText: "Gate chained shut" });
    expect(done.status).toBe(302);
    const after = await db().selectFrom("services").selectAll().where("id", "=", visit.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: "missed", missed_reason: "other", missed_note: "Gate chained shut" });
  });

  test("a return visit is linked to the missed one, and only one can be made", async () => {
    const visit = await visitRow("missed");
    expect((await post(visit.id, { intent: "return-visit", serviceDate: "2031-05-03T10:00" })).status).toBe(302);
    const second = await post(visit.id, { intent: "return-visit", serviceDate: "2031-05-04T10:00" });
    expect(second.status).toBe(409);
    const returns = await db().selectFrom("services").selectAll().where("return_visit_of", "=", visit.id).execute();
    expect(returns).toHaveLength(1);
    expect(returns[0]).toMatchObject({ status: "scheduled", customer_id: customer.id, service_type: "Weekly Service" });
  });

  test("a bad date is 400 with a field message; an unknown intent is 400; an unknown visit is 404", async () => {
    const visit = await visitRow();
    const bad = await post(visit.id, { intent: "reschedule", serviceDate: "2031-02-30T10:00" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).result.error.serviceDate).toEqual(["Enter a valid date and time"]);
    expect((await post(visit.id, { intent: "teleport" })).status).toBe(400);
    expect((await post("00000000-0000-4000-8000-000000000000", { intent: "complete" })).status).toBe(404);
    expect((await post("not-a-uuid", { intent: "complete" })).status).toBe(404);
  });

  test("health notes and notes are saved and show in the history with who did it", async () => {
    const visit = await visitRow();
    const body = new URLSearchParams([
      ["intent", "health"],
      ["healthFlags", "loose_stool"],
      ["healthFlags", "yard_hazard"],
      ["healthNote", "Broken glass by the shed"],
    ]);
    const response = await callRoute(visitAction, `/admin-dashboard/visits/${visit.id}`, {
      cookie: adminCookie,
      params: { visitId: visit.id },
      body: body.toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(302);
    const bad = await post(visit.id, { intent: "health", healthFlags: "glitter" });
    expect(bad.status).toBe(400);
    const after = await db().selectFrom("services").selectAll().where("id", "=", visit.id).executeTakeFirstOrThrow();
    expect(after.health_flags).toEqual(["loose_stool", "yard_hazard"]);
    expect(after.health_note).toBe("Broken glass by the shed");
    const page = await (
      await callRoute(visitLoader, `/admin-dashboard/visits/${visit.id}`, {
        cookie: adminCookie,
        params: { visitId: visit.id },
      })
    ).json();
    expect(page.history[0]).toMatchObject({ who: "Ada Admin" });
    expect(page.history[0].what).toContain("Loose stool");
  });

  test("customers are turned away from the page and its actions; nothing changes", async () => {
    const visit = await visitRow();
    const page = await callRoute(visitLoader, `/admin-dashboard/visits/${visit.id}`, {
      cookie: customerCookie,
      params: { visitId: visit.id },
    });
    expect(page.status).toBe(302);
    expect(locationOf(page)).toBe("/customer-dashboard");
    const change = await post(visit.id, { intent: "complete" }, customerCookie);
    expect(change.status).toBe(302);
    expect(locationOf(change)).toBe("/customer-dashboard");
    const anonymous = await callRoute(visitAction, `/admin-dashboard/visits/${visit.id}`, {
      params: { visitId: visit.id },
      form: { intent: "complete" },
    });
    expect(locationOf(anonymous)).toMatch(/^\/auth(\?redirectTo=%2F[^&]*)?$/);
    expect(
      (await db().selectFrom("services").select("status").where("id", "=", visit.id).executeTakeFirstOrThrow()).status,
    ).toBe("scheduled");
  });
});

describe("the Visits list", () => {
  test("defaults to today and the next 6 days, in time order, keyset-paged 50 at a time", async () => {
    const today = businessToday();
    const start = startOfBusinessDay(today)!.getTime();
    // 60 inside the range, one before it and one after it.
    for (let i = 0; i < 60; i++) await visitRow("scheduled", new Date(start + 60_000 * (i + 1)));
    await visitRow("scheduled", new Date(start - 3600_000));
    await visitRow("scheduled", startOfBusinessDay(addDays(today, 7))!);
    const first = await callRoute(listLoader, "/admin-dashboard/visits", { cookie: adminCookie });
    expect(first.status).toBe(200);
    const page1 = await first.json();
    expect(page1.filters).toMatchObject({ from: today, to: addDays(today, 6) });
    expect(page1.visits).toHaveLength(50);
    const dates = page1.visits.map((v: { date: string }) => v.date);
    expect([...dates].sort()).toEqual(dates);
    expect(page1.next).toBeTruthy();
    const second = await (
      await callRoute(listLoader, `/admin-dashboard/visits?after=${encodeURIComponent(page1.next)}`, {
        cookie: adminCookie,
      })
    ).json();
    expect(second.visits).toHaveLength(10);
    expect(second.next).toBeNull();
    const ids = new Set([...page1.visits, ...second.visits].map((v: { id: string }) => v.id));
    expect(ids.size).toBe(60);
  });

  test("filters by status and customer; nonsense is a 400 with the reason", async () => {
    const other = await createUser(db(), { fullName: "Otto Other" });
    await visitRow("scheduled");
    await visitRow("completed");
    await db()
      .insertInto("services")
      .values({ customer_id: other.id, service_type: "Desert Dash", service_date: new Date(Date.now() + 7200_000) })
      .execute();
    const completed = await (
      await callRoute(listLoader, "/admin-dashboard/visits?status=completed", { cookie: adminCookie })
    ).json();
    expect(completed.visits.map((v: { status: string }) => v.status)).toEqual(["completed"]);
    const mine = await (
      await callRoute(listLoader, `/admin-dashboard/visits?customer=${other.id}`, { cookie: adminCookie })
    ).json();
    expect(mine.visits.map((v: { customer: string }) => v.customer)).toEqual(["Otto Other"]);
    const bad = await callRoute(listLoader, "/admin-dashboard/visits?status=teleported&from=yesterday", {
      cookie: adminCookie,
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).problems).toHaveLength(2);
  });

  test("is for admins only", async () => {
    const response = await callRoute(listLoader, "/admin-dashboard/visits", { cookie: customerCookie });
    expect(locationOf(response)).toBe("/customer-dashboard");
  });
});

// Decision 076: Today pages by keyset, 50 at a time, and ships no React.
describe("Today", () => {
  type TodayVisit = { id: string; date: string };
  const today = (query = "") =>
    callRoute(todayLoader, `/admin-dashboard/visits/today${query}`, { cookie: adminCookie });

  test("a day over one route (more than 100 visits) lists every visit, 50 a page, in time order, none twice", async () => {
    const start = startOfBusinessDay(businessToday())!;
    // 120 today (more than a route holds, decision 093), in pairs at the same instant with microseconds (a timestamp that would not
    // survive a trip through a JavaScript Date in the URL), one yesterday and one tomorrow.
    await sql`insert into services (customer_id, service_type, service_date)
      select ${customer.id}, 'Weekly Service', ${start}::timestamptz + ((g / 2) || ' minutes')::interval
        + interval '1 minute 123 microseconds'
      from generate_series(0, 119) g`.execute(db());
    await visitRow("scheduled", new Date(start.getTime() - 60_000));
    await visitRow("scheduled", startOfBusinessDay(addDays(businessToday(), 1))!);

    const first = await today();
    expect(first.status).toBe(200);
    const page1 = await first.json();
    expect(page1.visits).toHaveLength(TODAY_PAGE_SIZE);
    expect(page1).toMatchObject({ paged: false, pageGone: false, next: page1.visits.at(-1).id });
    expect(page1.route).toBeNull();
    expect(page1.routeNote).toBe("More than 100 visits today, too many for one route: listed by time.");
    const second = await (await today(`?after=${page1.next}`)).json();
    expect(second).toMatchObject({ paged: true, pageGone: false, next: second.visits.at(-1).id });
    expect(second.visits).toHaveLength(TODAY_PAGE_SIZE);
    const third = await (await today(`?after=${second.next}`)).json();
    expect(third).toMatchObject({ paged: true, pageGone: false, next: null });
    expect(third.visits).toHaveLength(20);
    const all: TodayVisit[] = [...page1.visits, ...second.visits, ...third.visits];
    expect(new Set(all.map((v) => v.id)).size).toBe(120);
    const order = all.map((v) => `${v.date}~${v.id}`);
    expect([...order].sort()).toEqual(order);
    // After the day's last visit: nothing later, and that is no error.
    const end = await today(`?after=${all.at(-1)!.id}`);
    expect(end.status).toBe(200);
    expect(await end.json()).toMatchObject({ visits: [], paged: true, next: null, pageGone: false });
  });

  test("a page that does not exist shows the first page and says so (400)", async () => {
    await visitRow("scheduled", new Date(startOfBusinessDay(businessToday())!.getTime() + 60_000));
    for (const after of ["nonsense", "00000000-0000-4000-8000-000000000000"]) {
      const response = await today(`?after=${after}`);
      expect(response.status).toBe(400);
      const data = await response.json();
      expect(data).toMatchObject({ pageGone: true, paged: false });
      expect(data.visits).toHaveLength(1);
    }
  });

  test("is a static page (no React in the browser), for admins only", async () => {
    expect(isStaticPageHandle(todayHandle)).toBe(true);
    const response = await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: customerCookie });
    expect(locationOf(response)).toBe("/customer-dashboard");
  });
});
