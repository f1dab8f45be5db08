import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import {
  action as customerPageAction,
  loader as customerPageLoader,
} from "~/routes/admin-dashboard.customers.$customerId";
import { loader as customersLoader } from "~/routes/admin-dashboard.customers._index";
import { loader as adminVisitLoader, action as adminVisitAction } from "~/routes/admin-dashboard.visits.$visitId";
import { loader as visitsLoader } from "~/routes/admin-dashboard.visits._index";
import { loader as todayLoader } from "~/routes/admin-dashboard.visits.today";
import { loader as historyLoader } from "~/routes/customer-dashboard_.visits._index";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { loader as customerVisitLoader } from "~/routes/customer-dashboard_.visits.$visitId";
import { action as yardAction, loader as yardLoader } from "~/routes/customer-dashboard_.yard";
import { resetEnvCache } from "~/utils/env.server";

const database = useAppDatabase();
const db = () => database.current.db;
const GATE_CODE = "4471-SECRET";

let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let adminCookie: string;
let aliceCookie: string;
let bobCookie: string;

const goodYard = {
  street: "12 Palm Way",
  city: "Henderson",
  zip: "89052",
  gateCode: GATE_CODE,
  gateLocation: "Side gate, left of the garage",
  dogCount: "2",
  dogNames: "Rex, Luna",
  looseDog: "on",
  hazards: "Cactus by the fence",
  accessNotes: "Knock first",
  notifyVisitEmails: "on",
};

beforeAll(async () => {
  admin = await createUser(db(), { admin: true });
  alice = await createUser(db(), { fullName: "Alice Able", email: "alice@example.com" });
  bob = await createUser(db(), { fullName: "Bob Baker", email: "bob@example.com" });
  adminCookie = await sessionCookieFor(admin.id);
  aliceCookie = await sessionCookieFor(alice.id);
  bobCookie = await sessionCookieFor(bob.id);
});

beforeEach(async () => {
  await db().deleteFrom("yard_profiles").execute();
  await db().deleteFrom("services").execute();
});

// An hour from now, but still today in the business's time zone (the Today list shows it): in
// the last hour before midnight Pacific, a minute before midnight.
const laterToday = () =>
  new Date(Math.min(Date.now() + 3600_000, startOfBusinessDay(addDays(businessToday(), 1))!.getTime() - 60_000));

async function visitOf(customerId: string, at = laterToday()) {
  return db()
    .insertInto("services")
    .values({
      customer_id: customerId,
      service_type: "Weekly Service",
      service_date: at,
      health_flags: ["worms_or_foreign_objects"],
      health_note: "Private note for the owner",
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const saveYard = (cookie: string, form: Record<string, string>) =>
  callRoute(yardAction, "/customer-dashboard/yard", { cookie, form });

describe("Your Yard", () => {
  test("the customer saves their profile; the preference is on by default and can be turned off", async () => {
    const empty = await (await callRoute(yardLoader, "/customer-dashboard/yard", { cookie: aliceCookie })).json();
    expect(empty.yard).toBeNull();
    const saved = await saveYard(aliceCookie, goodYard);
    expect(saved.status).toBe(302);
    expect(await toastOf(saved)).toMatchObject({ type: "success", description: "Yard profile saved" });
    const row = await db()
      .selectFrom("yard_profiles")
      .selectAll()
      .where("user_id", "=", alice.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      gate_code: GATE_CODE,
      dog_count: 2,
      loose_dog: true,
      notify_visit_emails: true,
      zip: "89052",
    });
    const { notifyVisitEmails: _off, looseDog: _loose, ...withoutBoxes } = goodYard;
    await saveYard(aliceCookie, withoutBoxes);
    const after = await db()
      .selectFrom("yard_profiles")
      .selectAll()
      .where("user_id", "=", alice.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ notify_visit_emails: false, loose_dog: false });
  });

  test.each([
    ["a bad ZIP", { zip: "8905" }, "zip", "Enter a 5-digit ZIP code"],
    ["too many dogs", { dogCount: "21" }, "dogCount", "Enter a number of dogs from 0 to 20"],
    ["a gate code too long", { gateCode: "x".repeat(41) }, "gateCode", "At most 40 characters"],
  ])(
    "%s: 400 with the field's message, nothing stored, the gate code not echoed",
    async (_, override, field, message) => {
      const response = await saveYard(aliceCookie, { ...goodYard, ...override });
      expect(response.status).toBe(400);
      const body = await response.text();
      expect(JSON.parse(body).lastResult.error[field]).toEqual([message]);
      expect(body).not.toContain(GATE_CODE);
      expect(await db().selectFrom("yard_profiles").selectAll().execute()).toHaveLength(0);
    },
  );

  test("admins see and edit it from the customer's page", async () => {
    await saveYard(aliceCookie, goodYard);
    const page = await (
      await callRoute(customerPageLoader, `/admin-dashboard/customers/${alice.id}`, {
        cookie: adminCookie,
        params: { customerId: alice.id },
      })
    ).json();
    expect(page.yard.gateCode).toBe(GATE_CODE);
    const edit = await callRoute(customerPageAction, `/admin-dashboard/customers/${alice.id}`, {
      cookie: adminCookie,
      params: { customerId: alice.id },
      form: { ...goodYard, gateCode: "9999" },
    });
    expect(edit.status).toBe(302);
    const row = await db()
      .selectFrom("yard_profiles")
      .select("gate_code")
      .where("user_id", "=", alice.id)
      .executeTakeFirstOrThrow();
    expect(row.gate_code).toBe("9999");
  });
});

describe("the gate code is secret", () => {
  let lines: string[] = [];
  beforeEach(() => {
    lines = [];
    process.env.LOG_LEVEL = "debug";
    resetEnvCache();
    const capture = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    vi.spyOn(console, "log").mockImplementation(capture);
    vi.spyOn(console, "error").mockImplementation(capture);
    vi.spyOn(console, "warn").mockImplementation(capture);
    vi.spyOn(console, "info").mockImplementation(capture);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.env.LOG_LEVEL = "silent";
    resetEnvCache();
  });

  test("in no log line and no list page, from saving the yard to completing the visit", async () => {
    await saveYard(aliceCookie, goodYard);
    await saveYard(aliceCookie, { ...goodYard, zip: "bad" });
    const visit = await visitOf(alice.id);
    await callRoute(adminVisitAction, `/admin-dashboard/visits/${visit.id}`, {
      cookie: adminCookie,
      params: { visitId: visit.id },
      form: { intent: "complete" },
    });
    expect(lines.some((line) => line.includes("yard.saved"))).toBe(true);
    expect(lines.some((line) => line.includes("visit.changed"))).toBe(true);
    for (const line of lines) expect(line).not.toContain(GATE_CODE);

    const lists = [
      await callRoute(visitsLoader, "/admin-dashboard/visits", { cookie: adminCookie }),
      await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: adminCookie }),
      await callRoute(customersLoader, "/admin-dashboard/customers?q=alice", { cookie: adminCookie }),
      await callRoute(historyLoader, "/customer-dashboard/visits", { cookie: aliceCookie }),
    ];
    for (const response of lists) {
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain(GATE_CODE);
    }
    const today = await (await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: adminCookie })).json();
    expect(today.visits[0]).toMatchObject({
      hasGateCode: true,
      dogs: 2,
      looseDog: true,
      hazards: "Cactus by the fence",
    });
    // Nor in the outbox (the e-mail about the visit).
    const mail = await db().selectFrom("outbox").selectAll().execute();
    expect(JSON.stringify(mail)).not.toContain(GATE_CODE);
  });
});

describe("authorization: customer B never sees A's visit, yard, gate code, health notes or media", () => {
  test("the customer's visit page: own visit yes, anyone else's is the 404 of a missing one", async () => {
    const visit = await visitOf(alice.id);
    const own = await callRoute(customerVisitLoader, `/customer-dashboard/visits/${visit.id}`, {
      cookie: aliceCookie,
      params: { visitId: visit.id },
    });
    expect(own.status).toBe(200);
    const data = await own.json();
    expect(data.visit.healthFlags).toEqual(["worms_or_foreign_objects"]);
    const other = await callRoute(customerVisitLoader, `/customer-dashboard/visits/${visit.id}`, {
      cookie: bobCookie,
      params: { visitId: visit.id },
    });
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain("Private note");
    const missing = await callRoute(customerVisitLoader, "/customer-dashboard/visits/nope", {
      cookie: bobCookie,
      params: { visitId: "nope" },
    });
    expect(missing.status).toBe(404);
    const anonymous = await callRoute(customerVisitLoader, `/customer-dashboard/visits/${visit.id}`, {
      params: { visitId: visit.id },
    });
    expect(locationOf(anonymous)).toMatch(/^\/auth(\?redirectTo=%2F[^&]*)?$/);
  });

  test("history and yard show only the signed-in customer's own rows", async () => {
    await saveYard(aliceCookie, goodYard);
    await visitOf(alice.id);
    const bobYard = await (await callRoute(yardLoader, "/customer-dashboard/yard", { cookie: bobCookie })).json();
    expect(bobYard.yard).toBeNull();
    const bobHistory = await callRoute(historyLoader, "/customer-dashboard/visits", { cookie: bobCookie });
    expect((await bobHistory.json()).visits).toEqual([]);
    // Bob's save writes Bob's row only.
    await saveYard(bobCookie, { ...goodYard, gateCode: "1111" });
    const alices = await db()
      .selectFrom("yard_profiles")
      .select("gate_code")
      .where("user_id", "=", alice.id)
      .executeTakeFirstOrThrow();
    expect(alices.gate_code).toBe(GATE_CODE);
  });

  test("every admin page and action turns customers away, and stores nothing", async () => {
    const visit = await visitOf(alice.id);
    const calls = [
      () => callRoute(visitsLoader, "/admin-dashboard/visits", { cookie: bobCookie }),
      () => callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: bobCookie }),
      () => callRoute(customersLoader, "/admin-dashboard/customers", { cookie: bobCookie }),
      () =>
        callRoute(adminVisitLoader, `/admin-dashboard/visits/${visit.id}`, {
          cookie: bobCookie,
          params: { visitId: visit.id },
        }),
      () =>
        callRoute(adminVisitAction, `/admin-dashboard/visits/${visit.id}`, {
          cookie: bobCookie,
          params: { visitId: visit.id },
          form: { intent: "health", healthNote: "hijacked" },
        }),
      () =>
        callRoute(customerPageLoader, `/admin-dashboard/customers/${alice.id}`, {
          cookie: bobCookie,
          params: { customerId: alice.id },
        }),
      () =>
        callRoute(customerPageAction, `/admin-dashboard/customers/${alice.id}`, {
          cookie: bobCookie,
          params: { customerId: alice.id },
          form: { ...goodYard, gateCode: "0000" },
        }),
    ];
    for (const call of calls) {
      const response = await call();
      expect(response.status).toBe(302);
      expect(locationOf(response)).toBe("/customer-dashboard");
    }
    const row = await db().selectFrom("services").selectAll().where("id", "=", visit.id).executeTakeFirstOrThrow();
    expect(row.health_note).toBe("Private note for the owner");
    expect(await db().selectFrom("yard_profiles").selectAll().execute()).toHaveLength(0);
  });

  test("the signed-out are sent to sign in by every new page and action, and nothing is stored", async () => {
    const visit = await visitOf(alice.id);
    const params = { visitId: visit.id, customerId: alice.id };
    const calls = [
      () => callRoute(visitsLoader, "/admin-dashboard/visits"),
      () => callRoute(todayLoader, "/admin-dashboard/visits/today"),
      () => callRoute(customersLoader, "/admin-dashboard/customers"),
      () => callRoute(adminVisitLoader, `/admin-dashboard/visits/${visit.id}`, { params }),
      () =>
        callRoute(adminVisitAction, `/admin-dashboard/visits/${visit.id}`, {
          params,
          form: { intent: "health", healthNote: "hijacked" },
        }),
      () => callRoute(customerPageLoader, `/admin-dashboard/customers/${alice.id}`, { params }),
      () =>
        callRoute(customerPageAction, `/admin-dashboard/customers/${alice.id}`, {
          params,
          form: { ...goodYard, gateCode: "0000" },
        }),
      () => callRoute(yardLoader, "/customer-dashboard/yard"),
      () => callRoute(yardAction, "/customer-dashboard/yard", { form: goodYard }),
      () => callRoute(historyLoader, "/customer-dashboard/visits"),
      () => callRoute(customerVisitLoader, `/customer-dashboard/visits/${visit.id}`, { params }),
    ];
    for (const call of calls) {
      const response = await call();
      expect(response.status).toBe(302);
      expect(locationOf(response)).toMatch(/^\/auth(\?redirectTo=%2F[^&]*)?$/);
      expect(await response.text()).not.toContain("Private note");
    }
    const row = await db().selectFrom("services").selectAll().where("id", "=", visit.id).executeTakeFirstOrThrow();
    expect(row.health_note).toBe("Private note for the owner");
    expect(await db().selectFrom("yard_profiles").selectAll().execute()).toHaveLength(0);
  });

  test("an admin asking for an admin or an unknown id as a customer gets 404", async () => {
    for (const id of [admin.id, "00000000-0000-4000-8000-000000000000", "x"]) {
      const response = await callRoute(customerPageLoader, `/admin-dashboard/customers/${id}`, {
        cookie: adminCookie,
        params: { customerId: id },
      });
      expect(response.status).toBe(404);
    }
  });
});

describe("A customer's page", () => {
  test("shows their visits and their quote requests, matched by e-mail whatever its case, and no one else's", async () => {
    await db().deleteFrom("quote_requests").execute();
    const quote = (email: string, name: string) => ({
      name,
      phone: "7025550100",
      email,
      address: "1 Test St",
      zip: "89048",
      dogs: "1" as const,
      yard_size: "small" as const,
      service: "weekly",
      dedupe_key: name,
    });
    await db()
      .insertInto("quote_requests")
      .values([quote("ALICE@example.com", "Alice asks"), quote("bob@example.com", "Bob asks")])
      .execute();
    const visit = await visitOf(alice.id);
    await visitOf(bob.id);
    const page = await (
      await callRoute(customerPageLoader, `/admin-dashboard/customers/${alice.id}`, {
        cookie: adminCookie,
        params: { customerId: alice.id },
      })
    ).json();
    expect(page.visits.map((v: { id: string }) => v.id)).toEqual([visit.id]);
    expect(page.quotes).toHaveLength(1);
    expect(page.quotes[0]).toMatchObject({ service: "weekly", status: "new" });
    await db().deleteFrom("quote_requests").execute();
  });
});

describe("Customers search", () => {
  test("matches name or e-mail, case-insensitive, with wildcards taken literally, paged", async () => {
    const search = async (query: string) =>
      (await (
        await callRoute(customersLoader, `/admin-dashboard/customers?${query}`, { cookie: adminCookie })
      ).json()) as {
        customers: { email: string }[];
        next: string | null;
      };
    expect((await search("q=ALICE")).customers.map((c) => c.email)).toEqual(["alice@example.com"]);
    expect((await search("q=baker")).customers.map((c) => c.email)).toEqual(["bob@example.com"]);
    expect((await search("q=%25")).customers).toEqual([]);
    const all = await search("");
    expect(all.customers.map((c) => c.email)).not.toContain(admin.email);
    // Plain rows (no password hashing): the search only reads users and profiles.
    await db()
      .insertInto("users")
      .values(Array.from({ length: 26 }, (_, i) => ({ email: `zz-${String(i).padStart(2, "0")}@example.com` })))
      .execute();
    const first = await search("q=zz-");
    expect(first.customers).toHaveLength(25);
    const second = await search(`q=zz-&after=${encodeURIComponent(first.next!)}`);
    expect(second.customers.map((c) => c.email)).toEqual(["zz-25@example.com"]);
    const bad = await callRoute(customersLoader, "/admin-dashboard/customers?after=garbage", { cookie: adminCookie });
    expect(bad.status).toBe(400);
  });
});
