import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute } from "../helpers/route-calls";
import type { VisitStatus } from "../../db/schema";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { loader as customerLoader } from "~/routes/admin-dashboard.customers.$customerId";
import { loader as customersLoader } from "~/routes/admin-dashboard.customers._index";
import { action as visitAction } from "~/routes/admin-dashboard.visits.$visitId";
import { loader as listLoader } from "~/routes/admin-dashboard.visits._index";

/**
 * Issue 24, item 11: the customer's "All visits" link answers, notes carry business-time dates,
 * the Customers list marks unverified customers, and the Visits list filters by a customer search.
 */

const database = useAppDatabase();
const db = () => database.current.db;
const DAY = 24 * 3600 * 1000;

let admin: TestUser;
let adminCookie: string;

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin.id);
});

async function visitRow(customerId: string, at: Date, status: VisitStatus = "scheduled") {
  return db()
    .insertInto("services")
    .values({ customer_id: customerId, service_type: "Weekly Service", service_date: at, status })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const list = async (query: string) => {
  const response = await callRoute(listLoader, `/admin-dashboard/visits${query}`, { cookie: adminCookie });
  return { status: response.status, data: await response.json() };
};

describe("a customer's All visits link", () => {
  test("asks for last year and the next one, and the Visits list answers it with 200 and those visits", async () => {
    const customer = await createUser(db(), { fullName: "Lena Longtime" });
    const old = await visitRow(customer.id, new Date(Date.now() - 360 * DAY), "completed");
    const next = await visitRow(customer.id, new Date(Date.now() + 360 * DAY));
    const page = await callRoute(customerLoader, `/admin-dashboard/customers/${customer.id}`, {
      cookie: adminCookie,
      params: { customerId: customer.id },
    });
    const { allVisitsHref } = await page.json();
    const link = new URL(allVisitsHref, "http://localhost");
    const today = businessToday();
    expect(Object.fromEntries(link.searchParams)).toEqual({
      customer: customer.id,
      from: addDays(today, -365),
      to: addDays(today, 365),
    });
    const { status, data } = await list(link.search);
    expect(status).toBe(200);
    expect(data.problems).toEqual([]);
    expect(data.visits.map((v: { id: string }) => v.id)).toEqual([old.id, next.id]);
  });

  test("a range over two years is still refused (400), with the reason", async () => {
    const today = businessToday();
    const { status, data } = await list(`?from=${addDays(today, -400)}&to=${addDays(today, 400)}`);
    expect(status).toBe(400);
    expect(data.problems).toEqual(["Choose an end date after the start date, at most two years later."]);
  });
});

describe("notes in business time", () => {
  // 5:30 PM in Las Vegas on May 1 is already May 2 in UTC.
  const evening = new Date("2031-05-02T00:30:00.000Z");
  const post = (visitId: string, form: Record<string, string>) =>
    callRoute(visitAction, `/admin-dashboard/visits/${visitId}`, { cookie: adminCookie, params: { visitId }, form });

  test("the return-visit note names the missed visit's business day, not the UTC one", async () => {
    const customer = await createUser(db());
    const missed = await visitRow(customer.id, evening, "missed");
    expect((await post(missed.id, { intent: "return-visit", serviceDate: "2031-05-03T10:00" })).status).toBe(302);
    const returned = await db()
      .selectFrom("services")
      .select("notes")
      .where("return_visit_of", "=", missed.id)
      .executeTakeFirstOrThrow();
    expect(returned.notes).toBe("Return visit for the missed visit of May 1, 2031");
  });

  test("a reschedule's history line gives both times in business time", async () => {
    const customer = await createUser(db());
    const visit = await visitRow(customer.id, evening);
    expect((await post(visit.id, { intent: "reschedule", serviceDate: "2031-05-03T10:00" })).status).toBe(302);
    const line = await db()
      .selectFrom("service_events")
      .select(["kind", "detail"])
      .where("service_id", "=", visit.id)
      .executeTakeFirstOrThrow();
    expect(line).toEqual({ kind: "rescheduled", detail: "From May 1, 2031, 5:30 PM to May 3, 2031, 10:00 AM" });
  });
});

describe("the Customers list", () => {
  test('says "(unverified)" beside a customer whose e-mail is not verified, and only there', async () => {
    const tag = `mark${Date.now().toString(36)}`;
    await createUser(db(), { email: `${tag}-yes@example.com`, fullName: `${tag} Verified` });
    await createUser(db(), { email: `${tag}-no@example.com`, fullName: `${tag} Unverified`, verified: false });
    const response = await callRoute(customersLoader, `/admin-dashboard/customers?q=${tag}`, { cookie: adminCookie });
    const { customers } = await response.json();
    expect(customers.map((c: { name: string; verified: boolean }) => [c.name, c.verified])).toEqual([
      [`${tag} Unverified`, false],
      [`${tag} Verified`, true],
    ]);
  });
});

describe("the Visits list's customer filter", () => {
  let wren: TestUser;
  let other: TestUser;
  const today = businessToday();
  const start = () => startOfBusinessDay(today)!.getTime();

  beforeAll(async () => {
    wren = await createUser(db(), { email: `wren-${Date.now()}@filter.example`, fullName: "Wren Filterby" });
    other = await createUser(db(), { email: `otto-${Date.now()}@elsewhere.example`, fullName: "Otto Elsewhere" });
    // 55 of Wren's visits today (more than a page) and a few of Otto's in between.
    for (let i = 0; i < 55; i++) await visitRow(wren.id, new Date(start() + 60_000 * (i + 1)));
    for (let i = 0; i < 3; i++) await visitRow(other.id, new Date(start() + 60_000 * (i + 1) + 30_000));
  });

  test("finds a customer by part of the name or the e-mail, whatever its case, keyset-paged", async () => {
    for (const q of ["filterby", "WREN", "filter.example"]) {
      const first = await list(`?q=${encodeURIComponent(q)}`);
      expect(first.status).toBe(200);
      expect(first.data.filters.q).toBe(q);
      expect(first.data.visits).toHaveLength(50);
      expect(new Set(first.data.visits.map((v: { customerId: string }) => v.customerId))).toEqual(new Set([wren.id]));
      const second = await list(`?q=${encodeURIComponent(q)}&after=${encodeURIComponent(first.data.next)}`);
      expect(second.data.visits).toHaveLength(5);
      expect(second.data.next).toBeNull();
      const ids = new Set([...first.data.visits, ...second.data.visits].map((v: { id: string }) => v.id));
      expect(ids.size).toBe(55);
    }
    const otto = await list("?q=elsewhere");
    expect(otto.data.visits.map((v: { customer: string }) => v.customer)).toEqual(Array(3).fill("Otto Elsewhere"));
  });

  test("a search that names nobody shows no visits (200); wildcards are letters; too long is 400", async () => {
    expect((await list("?q=nobody-at-all")).data.visits).toEqual([]);
    expect((await list("?q=%25")).data.visits).toEqual([]);
    expect((await list("?q=_")).data.visits).toEqual([]);
    const long = await list(`?q=${"a".repeat(101)}`);
    expect(long.status).toBe(400);
    expect(long.data.problems).toEqual(["Search for at most 100 characters."]);
  });

  test("a term naming over 1,000 customers still filters (the walk that tests each row)", async () => {
    await sql`insert into users (email) select 'bulk' || g || '@common.example' from generate_series(1, 1001) g`.execute(
      db(),
    );
    const bulk = await db()
      .selectFrom("users")
      .select("id")
      .where("email", "=", "bulk7@common.example")
      .executeTakeFirstOrThrow();
    const visit = await visitRow(bulk.id, new Date(start() + 30 * 60_000));
    const { status, data } = await list("?q=common.example");
    expect(status).toBe(200);
    expect(data.visits.map((v: { id: string }) => v.id)).toEqual([visit.id]);
  });
});
