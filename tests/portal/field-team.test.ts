import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { GATE_CODE_MESSAGES } from "~/features/staff/gate-code-constants";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { loader as customerLoader } from "~/routes/admin-dashboard.customers.$customerId";
import { action as visitAction, loader as visitLoader } from "~/routes/admin-dashboard.visits.$visitId";
import { loader as myVisitsLoader } from "~/routes/admin-dashboard.visits.mine";
import { loader as todayLoader } from "~/routes/admin-dashboard.visits.today";

/**
 * Issue 36, items 1 and 4 (decision 128): an assignment change in the visit's History, and gate
 * codes on need to know (a technician's press of "Show gate code" on their own visit of today,
 * each press logged; the owner reads the log on the customer's page).
 */
const database = useAppDatabase();
const db = () => database.current.db;

const GATE_CODE = "48#21*7";
let owner: TestUser;
let office: TestUser;
let tess: TestUser;
let tom: TestUser;
let customer: TestUser;
let todayVisit: string;
let tomorrowVisit: string;
let tomsVisit: string;

const hoursInto = (day: string, hours: number) => new Date(startOfBusinessDay(day)!.getTime() + hours * 3_600_000);

beforeAll(async () => {
  owner = await createUser(db(), { role: "owner", fullName: "Oscar Owner" });
  office = await createUser(db(), { role: "office", fullName: "Olive Office" });
  tess = await createUser(db(), { role: "technician", fullName: "Tess Technician" });
  tom = await createUser(db(), { role: "technician", fullName: "Tom Technician" });
  customer = await createUser(db(), { fullName: "Gina Gate" });
  await db()
    .insertInto("yard_profiles")
    .values({ user_id: customer.id, gate_code: GATE_CODE, street: "1 Gate St" })
    .execute();
  const visit = async (date: Date, assignedTo: string | null) =>
    (
      await db()
        .insertInto("services")
        .values({
          customer_id: customer.id,
          service_type: "Weekly Service",
          service_date: date,
          assigned_to: assignedTo,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  const today = businessToday();
  todayVisit = await visit(hoursInto(today, 1), tess.id);
  tomorrowVisit = await visit(hoursInto(addDays(today, 1), 1), tess.id);
  tomsVisit = await visit(hoursInto(today, 2), tom.id);
});

const openVisit = async (who: TestUser, visitId: string) =>
  callRoute(visitLoader, `/admin-dashboard/visits/${visitId}`, {
    cookie: await sessionCookieFor(who.id),
    params: { visitId },
  });
const postVisit = async (who: TestUser, visitId: string, form: Record<string, string>) =>
  callRoute(visitAction, `/admin-dashboard/visits/${visitId}`, {
    cookie: await sessionCookieFor(who.id),
    params: { visitId },
    form,
  });
const views = () => db().selectFrom("gate_code_views").selectAll().orderBy("viewed_at").execute();

describe("an assignment change is in the visit's History", () => {
  it("names who moved it from whom to whom, once per real change; a refused change records nothing", async () => {
    const visitId = await db()
      .insertInto("services")
      .values({ customer_id: customer.id, service_type: "Weekly Service", service_date: hoursInto(businessToday(), 5) })
      .returning("id")
      .executeTakeFirstOrThrow()
      .then((row) => row.id);
    const events = () =>
      db()
        .selectFrom("service_events")
        .select(["kind", "detail", "actor_id"])
        .where("service_id", "=", visitId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();

    expect((await postVisit(office, visitId, { intent: "assign", assignedTo: tess.id })).status).toBe(302);
    expect((await postVisit(office, visitId, { intent: "assign", assignedTo: tess.id })).status).toBe(302);
    expect((await postVisit(owner, visitId, { intent: "assign", assignedTo: tom.id })).status).toBe(302);
    expect((await postVisit(office, visitId, { intent: "assign", assignedTo: customer.id })).status).toBe(400);
    expect((await postVisit(tom, visitId, { intent: "assign", assignedTo: tess.id })).status).toBe(403);
    expect((await postVisit(office, visitId, { intent: "assign", assignedTo: "" })).status).toBe(302);

    expect(await events()).toEqual([
      { kind: "assigned", detail: "Assigned: nobody → Tess Technician", actor_id: office.id },
      { kind: "assigned", detail: "Assigned: Tess Technician → Tom Technician", actor_id: owner.id },
      { kind: "assigned", detail: "Assigned: Tom Technician → nobody", actor_id: office.id },
    ]);
    const page = await (await openVisit(owner, visitId)).json();
    expect(page.history.map((line: { who: string; what: string }) => `${line.who}: ${line.what}`)).toEqual([
      "Olive Office: Assigned: Tom Technician → nobody",
      "Oscar Owner: Assigned: Tess Technician → Tom Technician",
      "Olive Office: Assigned: nobody → Tess Technician",
    ]);
  });
});

describe("gate codes on need to know", () => {
  it("a technician's own visit of today: no code in the page before the press; each press shows it and is logged once", async () => {
    const before = await views();
    const page = await openVisit(tess, todayVisit);
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).not.toContain(GATE_CODE);
    expect(JSON.parse(body).yard).toMatchObject({ gateCode: null, gateCodeHidden: true });
    expect(await views()).toEqual(before);

    const pressed = await postVisit(tess, todayVisit, { intent: "show-gate-code" });
    expect(pressed.status).toBe(200);
    const answer = await pressed.json();
    expect(answer).toMatchObject({
      gateCode: GATE_CODE,
      toast: { type: "success", description: GATE_CODE_MESSAGES.shown },
    });
    const logged = await views();
    expect(logged).toHaveLength(before.length + 1);
    expect(logged.at(-1)).toMatchObject({ customer_id: customer.id, visit_id: todayVisit, viewer_id: tess.id });

    await postVisit(tess, todayVisit, { intent: "show-gate-code" });
    expect(await views()).toHaveLength(before.length + 2);
    // Loading the page again does not show it, nor log anything.
    expect(await (await openVisit(tess, todayVisit)).text()).not.toContain(GATE_CODE);
    expect(await views()).toHaveLength(before.length + 2);
  });

  it("another technician's visit, or their own of another day: refused, nothing logged, no code anywhere", async () => {
    const before = await views();
    const others = await postVisit(tess, tomsVisit, { intent: "show-gate-code" });
    expect(others.status).toBe(302);
    expect(locationOf(others)).toBe("/admin-dashboard/visits/today");
    expect(await toastOf(others)).toMatchObject({ message: "Access Denied" });
    expect(await (await openVisit(tess, tomsVisit)).text()).not.toContain(GATE_CODE);

    const tomorrow = await postVisit(tess, tomorrowVisit, { intent: "show-gate-code" });
    expect(tomorrow.status).toBe(403);
    const refused = await tomorrow.text();
    expect(refused).toContain(GATE_CODE_MESSAGES.notToday);
    expect(refused).not.toContain(GATE_CODE);
    const page = await (await openVisit(tess, tomorrowVisit)).text();
    expect(page).not.toContain(GATE_CODE);
    expect(await views()).toEqual(before);
  });

  it("Today never carries the code to a technician; office and owner see it as before, unlogged", async () => {
    const before = await views();
    const today = await callRoute(todayLoader, "/admin-dashboard/visits/today", {
      cookie: await sessionCookieFor(tess.id),
    });
    const todayBody = await today.text();
    expect(todayBody).toContain(todayVisit);
    expect(todayBody).not.toContain(GATE_CODE);

    const officePage = await (await openVisit(office, todayVisit)).json();
    expect(officePage.yard).toMatchObject({ gateCode: GATE_CODE, gateCodeHidden: false });
    expect(await views()).toEqual(before);
  });

  it("the owner reads the log on the customer's page; the office's page has no log", async () => {
    const open = async (who: TestUser) =>
      (
        await callRoute(customerLoader, `/admin-dashboard/customers/${customer.id}`, {
          cookie: await sessionCookieFor(who.id),
          params: { customerId: customer.id },
        })
      ).json();
    const ownerPage = await open(owner);
    const logged = await views();
    expect(ownerPage.gateCodeViews).toHaveLength(logged.length);
    expect(logged.length).toBeGreaterThan(0);
    for (const view of ownerPage.gateCodeViews) {
      expect(view).toMatchObject({ who: "Tess Technician", visit: { id: todayVisit } });
    }
    expect((await open(office)).gateCodeViews).toBeNull();
  });
});

describe("every link a technician is shown leads somewhere they may go", () => {
  it("My visits lists their visits of today and the next 7 days, by day, and nobody else's", async () => {
    const far = await db()
      .insertInto("services")
      .values({
        customer_id: customer.id,
        service_type: "Weekly Service",
        service_date: hoursInto(addDays(businessToday(), 9), 1),
        assigned_to: tess.id,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const response = await callRoute(myVisitsLoader, "/admin-dashboard/visits/mine", {
      cookie: await sessionCookieFor(tess.id),
    });
    expect(response.status).toBe(200);
    const page = await response.json();
    const ids = page.days.flatMap((day: { visits: { id: string }[] }) => day.visits.map((visit) => visit.id));
    expect(ids).toEqual([todayVisit, tomorrowVisit]);
    expect(page.days.map((day: { isToday: boolean }) => day.isToday)).toEqual([true, false]);
    expect(JSON.stringify(page)).not.toContain(tomsVisit);
    expect(JSON.stringify(page)).not.toContain(far.id);
    expect(JSON.stringify(page)).not.toContain(GATE_CODE);
    // Each row's link is a page the technician may open.
    for (const id of ids) expect((await openVisit(tess, id)).status).toBe(200);
  });

  it("Today and the visit page lead a technician back to My visits, never to the customer's page or plan", async () => {
    const today = await (
      await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: await sessionCookieFor(tess.id) })
    ).json();
    expect(today.back).toEqual({ to: "/admin-dashboard/visits/mine", label: "My visits" });
    const page = await (await openVisit(tess, todayVisit)).json();
    expect(page.visit.back).toEqual({ to: "/admin-dashboard/visits/mine", label: "My visits" });
    expect(page.customer.href).toBeNull();
    expect(JSON.stringify(page)).not.toContain("/admin-dashboard/customers");

    const officePage = await (await openVisit(office, todayVisit)).json();
    expect(officePage.visit.back).toEqual({ to: "/admin-dashboard/visits", label: "All visits" });
    expect(officePage.customer.href).toBe(`/admin-dashboard/customers/${customer.id}`);
  });
});
