import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf } from "../helpers/route-calls";
import { businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { completedLabel } from "~/features/visits/visit-page.server";
import { loader as customerVisitLoader } from "~/routes/customer-dashboard_.visits.$visitId";
import { action as visitAction, loader as visitLoader } from "~/routes/admin-dashboard.visits.$visitId";
import { loader as todayLoader } from "~/routes/admin-dashboard.visits.today";

/**
 * Issue 26, item 6: the customer's phone as a `tel:` link on Today and on the admin's visit page
 * (the yard's mobile, else the newest number on their quotes; to admins only), and the time a
 * visit was completed.
 */

const database = useAppDatabase();
const db = () => database.current.db;

let adminCookie: string;
let mobile: TestUser; // a yard with a mobile number, and an older quote
let quoted: TestUser; // no mobile; two quotes
let silent: TestUser; // no number at all
let mobileCookie: string;

type Phone = { href: string; label: string } | null;
type TodayJson = { visits: { id: string; customer: string; phone: Phone }[] };

async function quote(email: string, phone: string, createdAt: string) {
  await db()
    .insertInto("quote_requests")
    .values({
      name: "Quote",
      phone,
      email,
      address: "1 Test St",
      zip: "89048",
      dogs: "1",
      yard_size: "small",
      service: "weekly",
      dedupe_key: `${email}-${createdAt}`,
      created_at: createdAt,
    } as never)
    .execute();
}

async function visitOf(customer: TestUser, minutes = 60) {
  const at = new Date(startOfBusinessDay(businessToday())!.getTime() + minutes * 60_000);
  return db()
    .insertInto("services")
    .values({ customer_id: customer.id, service_type: "Weekly Service", service_date: at, status: "scheduled" })
    .returning("id")
    .executeTakeFirstOrThrow();
}

const adminVisit = async (id: string, cookie = adminCookie) =>
  callRoute(visitLoader, `/admin-dashboard/visits/${id}`, { cookie, params: { visitId: id } });

beforeAll(async () => {
  adminCookie = await sessionCookieFor((await createUser(db(), { admin: true, fullName: "Ada Admin" })).id);
  mobile = await createUser(db(), { fullName: "Mo Bile", email: "mo@phone.example" });
  quoted = await createUser(db(), { fullName: "Quo Ted", email: "quo@phone.example" });
  silent = await createUser(db(), { fullName: "Si Lent", email: "si@phone.example" });
  mobileCookie = await sessionCookieFor(mobile.id);
  await db()
    .insertInto("yard_profiles")
    .values([
      { user_id: mobile.id, street: "1 Test St", city: "Pahrump", zip: "89048", mobile_phone: "+17025550101" },
      { user_id: quoted.id, street: "2 Test St", city: "Pahrump", zip: "89048" },
    ])
    .execute();
  await quote("mo@phone.example", "(702) 555-0199", "2026-01-01T10:00:00Z");
  await quote("QUO@phone.example", "(702) 555-0102", "2026-01-01T10:00:00Z");
  await quote("quo@phone.example", "(702) 555-0103", "2026-02-01T10:00:00Z");
});

beforeEach(async () => {
  await db().deleteFrom("route_orders").execute();
  await db().deleteFrom("services").execute();
});

describe("the customer's phone on Today", () => {
  test("the yard's mobile first, else the newest quote's number, else nothing", async () => {
    await visitOf(mobile);
    await visitOf(quoted, 90);
    await visitOf(silent, 120);
    const response = await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: adminCookie });
    expect(response.status).toBe(200);
    const page = (await response.json()) as TodayJson;
    const phones = Object.fromEntries(page.visits.map((visit) => [visit.customer, visit.phone]));
    expect(phones).toEqual({
      "Mo Bile": { href: "tel:+17025550101", label: "(702) 555-0101" },
      "Quo Ted": { href: "tel:+17025550103", label: "(702) 555-0103" },
      "Si Lent": null,
    });
  });

  test("a customer gets no Today (redirected, no numbers)", async () => {
    await visitOf(quoted);
    const response = await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: mobileCookie });
    expect(locationOf(response)).toBe("/customer-dashboard");
    expect(await response.text()).not.toContain("555");
  });
});

describe("the admin's visit page", () => {
  test("the phone as a tel: link; none when the customer gave none", async () => {
    const withMobile = await visitOf(mobile);
    const none = await visitOf(silent);
    const page = await (await adminVisit(withMobile.id)).json();
    expect(page.customer.phone).toEqual({ href: "tel:+17025550101", label: "(702) 555-0101" });
    expect((await (await adminVisit(none.id)).json()).customer.phone).toBeNull();
  });

  test("never to a customer: the admin page redirects, their own visit page carries no number", async () => {
    const own = await visitOf(mobile);
    const refused = await adminVisit(own.id, mobileCookie);
    expect(locationOf(refused)).toBe("/customer-dashboard");
    const mine = await callRoute(customerVisitLoader, `/customer-dashboard/visits/${own.id}`, {
      cookie: mobileCookie,
      params: { visitId: own.id },
    });
    expect(mine.status).toBe(200);
    const body = await mine.text();
    expect(body).not.toContain("5550101");
    expect(body).not.toContain("tel:");
  });

  test("completing records the time and the page says it; reopening clears it", async () => {
    const visit = await visitOf(quoted);
    const post = (intent: string) =>
      callRoute(visitAction, `/admin-dashboard/visits/${visit.id}`, {
        cookie: adminCookie,
        params: { visitId: visit.id },
        form: { intent },
      });
    expect((await (await adminVisit(visit.id)).json()).visit.completedLabel).toBeNull();
    const before = Date.now();
    expect((await post("complete")).status).toBe(302);
    const row = await db().selectFrom("services").select("completed_at").where("id", "=", visit.id).executeTakeFirst();
    expect(row?.completed_at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const page = (await (await adminVisit(visit.id)).json()).visit;
    expect(page.completedAt).toBe(row!.completed_at!.toISOString());
    expect(page.completedLabel).toMatch(/^Completed at \d{1,2}:\d{2} [AP]M( on .+)?$/);
    expect((await post("reopen")).status).toBe(302);
    expect((await (await adminVisit(visit.id)).json()).visit.completedLabel).toBeNull();
  });
});

describe("completedLabel", () => {
  // Business time is Pahrump's (America/Los_Angeles): 18:31 UTC on Nov 26 is 10:31 AM there.
  test("the time alone on the visit's own day, with the day otherwise", () => {
    const visitAt = new Date("2026-11-26T17:00:00Z");
    expect(completedLabel(new Date("2026-11-26T18:31:00Z"), visitAt)).toBe("Completed at 10:31 AM");
    expect(completedLabel(new Date("2026-11-27T18:05:00Z"), visitAt)).toBe("Completed at 10:05 AM on Nov 27, 2026");
  });
});
