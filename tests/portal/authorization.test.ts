import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { makePng, MP4_HEADER, multipartBody, generatedBytes } from "../helpers/media-bytes";
import { startWeeklyPlanAhead } from "../helpers/plan-seed";
import { createBookingRow, createVisitRow } from "../helpers/portal-data";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { storeVisitMedia } from "~/features/media/visit-media.server";
import { nextWeekday } from "~/features/plans/admin-plan-page.server";
import { addDays, businessToday } from "~/features/visits/visit-dates";
import * as adminIndex from "~/routes/admin-dashboard._index";
import * as customerPage from "~/routes/admin-dashboard.customers.$customerId";
import * as adminLayout from "~/routes/admin-dashboard";
import * as quotePage from "~/routes/admin-dashboard.quotes.$quoteId";
import * as customerDashboard from "~/routes/customer-dashboard";
import * as yourPlan from "~/routes/customer-dashboard_.plan";
import * as media from "~/routes/resources.media.$imageId";
import { createFolderStorage, setStorageForTests } from "~/utils/storage.server";

/**
 * SPEC section 6, enforced on the server: anonymous, customer A, customer B and an admin
 * against every portal loader, action and media URL.
 */
const database = useAppDatabase();
const db = () => database.current.db;

type Who = "anonymous" | "customerA" | "customerB" | "admin";
const WHO: Who[] = ["anonymous", "customerA", "customerB", "admin"];

let uploads: string;
let users: Record<Exclude<Who, "anonymous">, TestUser>;
let cookies: Record<Who, string | undefined>;
let a: { visitIds: string[]; bookingIds: string[]; mediaIds: string[] };
let b: { visitIds: string[]; bookingIds: string[]; mediaIds: string[] };

async function seedCustomer(user: TestUser, admin: TestUser) {
  const visits = [
    await createVisitRow(db(), user.id, { daysFromNow: -2, notes: `notes of ${user.email}` }),
    await createVisitRow(db(), user.id, { daysFromNow: 1, status: "scheduled" }),
  ];
  const bookings = [await createBookingRow(db(), user.id, { status: "confirmed" })];
  const mediaIds: string[] = [];
  for (const [imageType, bytes] of [
    ["before", makePng(8, 8)],
    ["after", makePng(8, 8, [200, 30, 30])],
  ] as const) {
    const result = await storeVisitMedia({
      visit: visits[0],
      imageType,
      source: (async function* () {
        yield bytes;
      })(),
      uploadedBy: admin.id,
    });
    if (!result.ok) throw new Error(`seed upload failed: ${result.reason}`);
    mediaIds.push(result.image.id);
  }
  return { visitIds: visits.map((s) => s.id), bookingIds: bookings.map((x) => x.id), mediaIds };
}

beforeAll(async () => {
  uploads = mkdtempSync(path.join(os.tmpdir(), "portal-auth-"));
  setStorageForTests(createFolderStorage(uploads));
  users = {
    customerA: await createUser(db(), { fullName: "Alice Able" }),
    customerB: await createUser(db(), { fullName: "Bob Baker" }),
    admin: await createUser(db(), { admin: true, fullName: "Ada Admin" }),
  };
  cookies = {
    anonymous: undefined,
    customerA: await sessionCookieFor(users.customerA.id),
    customerB: await sessionCookieFor(users.customerB.id),
    admin: await sessionCookieFor(users.admin.id),
  };
  a = await seedCustomer(users.customerA, users.admin);
  b = await seedCustomer(users.customerB, users.admin);
});

afterAll(() => {
  setStorageForTests(undefined);
  rmSync(uploads, { recursive: true, force: true });
});

async function expectAccessDenied(response: Response) {
  expect(response.status).toBe(302);
  expect(locationOf(response)).toBe("/customer-dashboard");
  expect(await toastOf(response)).toMatchObject({
    type: "error",
    message: "Access Denied",
    description: "You don't have admin privileges",
  });
}

function expectSignIn(response: Response) {
  expect(response.status).toBe(302);
  expect(locationOf(response)).toMatch(/^\/auth(\?redirectTo=%2F[^&]*)?$/);
}

const countRows = async () => ({
  services: (await db().selectFrom("services").select("id").execute()).length,
  images: (await db().selectFrom("service_images").select("id").execute()).length,
});

describe("/customer-dashboard loader", () => {
  test.each(WHO)("%s", async (who) => {
    const response = await callRoute(customerDashboard.loader, "/customer-dashboard", { cookie: cookies[who] });
    if (who === "anonymous") return expectSignIn(response);
    expect(response.status).toBe(200);
    const text = await response.text();
    const mine = who === "customerA" ? a : who === "customerB" ? b : null;
    const theirs = who === "customerA" ? b : who === "customerB" ? a : null;
    const data = JSON.parse(text);
    expect(data.email).toBe(users[who].email);
    if (mine && theirs) {
      // The completed visit; the one scheduled for tomorrow is not a recent service (decision 047).
      expect(data.recentVisits.map((s: { id: string }) => s.id)).toEqual([mine.visitIds[0]]);
      expect(data.bookings.map((s: { id: string }) => s.id)).toEqual(mine.bookingIds);
      const shownMedia = data.visitMedia.flatMap((v: { items: { id: string }[] }) => v.items.map((i) => i.id));
      expect(shownMedia.sort()).toEqual([...mine.mediaIds].sort());
      // Nothing of the other customer's, anywhere in the payload.
      for (const id of [...theirs.visitIds, ...theirs.bookingIds, ...theirs.mediaIds]) expect(text).not.toContain(id);
      expect(text).not.toContain(who === "customerA" ? users.customerB.email : users.customerA.email);
    } else {
      // An admin's own customer dashboard holds only their own (no) rows.
      expect(data.recentVisits).toEqual([]);
      expect(data.bookings).toEqual([]);
      expect(data.visitMedia).toEqual([]);
    }
  });
});

describe("/customer-dashboard action (Book Appointment without JavaScript)", () => {
  test.each(WHO)("%s, agreement unchecked", async (who) => {
    const response = await callRoute(customerDashboard.action, "/customer-dashboard", {
      cookie: cookies[who],
      form: {},
    });
    if (who === "anonymous") return expectSignIn(response);
    expect(response.status).toBe(302);
    expect(locationOf(response)).toBe("/customer-dashboard");
    expect(await toastOf(response)).toMatchObject({
      type: "error",
      message: "Agreement Required",
      description: "Please agree to the Terms of Service before booking.",
    });
  });

  test.each(WHO)("%s, agreement checked", async (who) => {
    const response = await callRoute(customerDashboard.action, "/customer-dashboard", {
      cookie: cookies[who],
      form: { agree: "yes" },
    });
    if (who === "anonymous") return expectSignIn(response);
    expect(response.status).toBe(302);
    const location = new URL(locationOf(response)!);
    expect(location.protocol).toBe("https:");
    expect(location.searchParams.get("email")).toBe(users[who].email);
    expect(location.searchParams.get("name")).toBe(users[who].fullName);
  });
});

describe("/admin-dashboard layout and index loaders", () => {
  const urls = [
    "/admin-dashboard",
    "/admin-dashboard?tab=upload",
    () => `/admin-dashboard?tab=upload&service=${a.visitIds[0]}`,
  ];
  for (const [i, url] of urls.entries()) {
    test.each(WHO)(`%s (url ${i})`, async (who) => {
      const href = typeof url === "function" ? url() : url;
      for (const loader of [adminLayout.loader, adminIndex.loader]) {
        const response = await callRoute(loader, href, { cookie: cookies[who] });
        if (who === "anonymous") expectSignIn(response);
        else if (who !== "admin") await expectAccessDenied(response);
        else expect(response.status).toBe(200);
      }
    });
  }

  test("the admin finds customers (never an admin) by search, and sees the current visit", async () => {
    const response = await callRoute(adminIndex.loader, `/admin-dashboard?tab=upload&service=${a.visitIds[0]}`, {
      cookie: cookies.admin,
    });
    const data = await response.json();
    // No list of every customer: the current visit's customer is the one chosen.
    expect(data).not.toHaveProperty("customers");
    expect(data.customerMatches).toBeNull();
    expect(data.selectedCustomer).toMatchObject({ id: users.customerA.id });
    expect(data.currentVisit).toMatchObject({ id: a.visitIds[0], customerId: users.customerA.id });
    expect(data.media.map((m: { id: string }) => m.id).sort()).toEqual([...a.mediaIds].sort());
    const found = await (
      await callRoute(adminIndex.loader, `/admin-dashboard?tab=create&customerSearch=${encodeURIComponent("@")}`, {
        cookie: cookies.admin,
      })
    ).json();
    const ids = found.customerMatches.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([users.customerA.id, users.customerB.id]));
    expect(ids).not.toContain(users.admin.id);
  });
});

describe("/admin-dashboard actions", () => {
  test.each(WHO)("%s creating a visit", async (who) => {
    const before = await countRows();
    const response = await callRoute(adminIndex.action, "/admin-dashboard?index", {
      cookie: cookies[who],
      form: { customerId: users.customerA.id, serviceType: "Desert Dash", serviceDate: "2025-05-01T09:00", notes: "" },
    });
    const after = await countRows();
    if (who === "anonymous") expectSignIn(response);
    else if (who !== "admin") await expectAccessDenied(response);
    if (who !== "admin") return expect(after).toEqual(before);
    expect(response.status).toBe(302);
    expect(after.services).toBe(before.services + 1);
  });

  test.each(WHO)("%s uploading media", async (who) => {
    const before = await countRows();
    const { body, contentType } = multipartBody({
      field: "after",
      filename: "clip.mp4",
      contentType: "video/mp4",
      bytes: generatedBytes(MP4_HEADER, 300_000),
    });
    const response = await callRoute(adminIndex.action, `/admin-dashboard?index&service=${a.visitIds[0]}`, {
      cookie: cookies[who],
      body,
      headers: { "Content-Type": contentType },
    });
    const after = await countRows();
    if (who === "anonymous") expectSignIn(response);
    else if (who !== "admin") await expectAccessDenied(response);
    if (who !== "admin") return expect(after).toEqual(before);
    expect(await toastOf(response)).toMatchObject({
      message: "Success",
      description: "after video uploaded successfully",
    });
    expect(after.images).toBe(before.images + 1);
  });
});

describe("/admin-dashboard/customers/:customerId, its loader and the Plan section's intents", () => {
  // A customer of the Plan section's own, so the rows counted are this block's.
  let planCustomer: TestUser;
  beforeAll(async () => {
    planCustomer = await createUser(db(), { fullName: "Pat Plan" });
  });
  const url = () => `/admin-dashboard/customers/${planCustomer.id}`;
  const planId = async () =>
    (
      await db()
        .selectFrom("customer_plans")
        .select("id")
        .where("customer_id", "=", planCustomer.id)
        .orderBy("created_at", "desc")
        .executeTakeFirst()
    )?.id ?? "00000000-0000-4000-8000-000000000000";
  const planRows = async () => ({
    plans: await db().selectFrom("customer_plans").selectAll().where("customer_id", "=", planCustomer.id).execute(),
    visits: await db()
      .selectFrom("services")
      .select(["id", "status", "service_date"])
      .where("customer_id", "=", planCustomer.id)
      .orderBy("id")
      .execute(),
    events: (await db().selectFrom("customer_plan_events").select("id").execute()).length,
  });
  const day = () => nextWeekday(businessToday());
  const plan = (pairs: [string, string][]) => ({
    body: new URLSearchParams(pairs).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  const fields: [string, string][] = [
    ["cataloguePlanId", "servicePlan.weekly"],
    ["weekdays", "2"],
    ["dogCount", "1"],
    ["yardSize", "small"],
  ];
  const INTENTS: [string, string, () => Promise<[string, string][]>][] = [
    ["start-plan", "Plan started", async () => [["intent", "start-plan"], ...fields, ["startDate", day()]]],
    [
      "change-plan",
      "Plan changed",
      async () => [
        ["intent", "change-plan"],
        ["planId", await planId()],
        ...fields.map(([name, value]): [string, string] => [name, name === "weekdays" ? "3" : value]),
        ["fromDate", day()],
      ],
    ],
    [
      "pause-plan",
      "Service paused",
      async () => [
        ["intent", "pause-plan"],
        ["planId", await planId()],
        ["from", day()],
        ["until", addDays(day(), 6)],
      ],
    ],
    [
      "resume-plan",
      "Service resumed",
      async () => [
        ["intent", "resume-plan"],
        ["planId", await planId()],
      ],
    ],
    [
      "cancel-plan",
      "Plan cancelled",
      async () => [
        ["intent", "cancel-plan"],
        ["planId", await planId()],
      ],
    ],
  ];

  test.each(WHO)("%s opening the page", async (who) => {
    const response = await callRoute(customerPage.loader, url(), {
      cookie: cookies[who],
      params: { customerId: planCustomer.id },
    });
    if (who === "anonymous") return expectSignIn(response);
    if (who !== "admin") return expectAccessDenied(response);
    expect(response.status).toBe(200);
    expect((await response.json()).plan).toMatchObject({ plan: null });
  });

  // In this order: the admin's start makes the plan the next intents change.
  for (const [intent, toast, form] of INTENTS) {
    test.each(WHO)(`%s posting ${intent}`, async (who) => {
      const before = await planRows();
      const response = await callRoute(customerPage.action, url(), {
        cookie: cookies[who],
        params: { customerId: planCustomer.id },
        ...plan(await form()),
      });
      if (who !== "admin") {
        if (who === "anonymous") expectSignIn(response);
        else await expectAccessDenied(response);
        return expect(await planRows()).toEqual(before);
      }
      expect(response.status).toBe(302);
      expect(await toastOf(response)).toMatchObject({ type: "success", description: toast });
      expect((await planRows()).events).toBe(before.events + 1);
    });
  }

  test("an admin whose session never passed the second step, or without two-step, changes nothing", async () => {
    const noSecondStep = await sessionCookieFor(users.admin.id, { secondStep: false });
    const withoutTwoStep = await createUser(db(), { admin: true, twoStep: false });
    const noTwoStepCookie = await sessionCookieFor(withoutTwoStep.id);
    const before = await planRows();
    for (const [, , form] of INTENTS) {
      const early = await callRoute(customerPage.action, url(), {
        cookie: noSecondStep,
        params: { customerId: planCustomer.id },
        ...plan(await form()),
      });
      expect(early.status).toBe(302);
      expect(locationOf(early)).toMatch(/^\/auth/);
      const off = await callRoute(customerPage.action, url(), {
        cookie: noTwoStepCookie,
        params: { customerId: planCustomer.id },
        ...plan(await form()),
      });
      expect(locationOf(off)).toBe("/account/security");
    }
    for (const cookie of [await sessionCookieFor(users.admin.id, { secondStep: false }), noTwoStepCookie]) {
      const page = await callRoute(customerPage.loader, url(), { cookie, params: { customerId: planCustomer.id } });
      expect(page.status).toBe(302);
    }
    expect(await planRows()).toEqual(before);
  });
});

describe("/admin-dashboard/quotes/:quoteId, its loader and Create customer and plan", () => {
  let quoteId: string;
  const email = "quote-to-customer@example.com";
  beforeAll(async () => {
    quoteId = (
      await db()
        .insertInto("quote_requests")
        .values({
          name: "Quinn Quote",
          phone: "7025550100",
          email,
          address: "1 Test St",
          zip: "89048",
          dogs: "1",
          yard_size: "small",
          service: "weekly",
          message: null,
          dedupe_key: "authorization-quote",
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  });
  const url = () => `/admin-dashboard/quotes/${quoteId}`;
  const rows = async () => ({
    quote: await db()
      .selectFrom("quote_requests")
      .select(["status", "customer_id", "converted_at"])
      .where("id", "=", quoteId)
      .executeTakeFirstOrThrow(),
    users: (await db().selectFrom("users").select("id").where("email", "=", email).execute()).length,
    plans: (await db().selectFrom("customer_plans").select("id").execute()).length,
    tokens: (await db().selectFrom("account_tokens").select("token_hash").execute()).length,
    invitations: (await db().selectFrom("outbox").select("id").where("kind", "=", "account_invite").execute()).length,
  });
  const form = () => ({
    body: new URLSearchParams([
      ["intent", "create-customer"],
      ["fullName", "Quinn Quote"],
      ["email", email],
      ["street", "1 Test St"],
      ["zip", "89048"],
      ["cataloguePlanId", "servicePlan.weekly"],
      ["weekdays", "2"],
      ["dogCount", "1"],
      ["yardSize", "small"],
      ["startDate", nextWeekday(businessToday())],
    ]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });

  test.each(WHO)("%s opening the page", async (who) => {
    const response = await callRoute(quotePage.loader, url(), { cookie: cookies[who], params: { quoteId } });
    if (who === "anonymous") return expectSignIn(response);
    if (who !== "admin") return expectAccessDenied(response);
    expect(response.status).toBe(200);
    expect((await response.json()).conversion).toMatchObject({ state: "open" });
  });

  // The admin last: the only one whose post makes the customer.
  test.each(WHO)("%s posting create-customer", async (who) => {
    const before = await rows();
    const response = await callRoute(quotePage.action, url(), { cookie: cookies[who], params: { quoteId }, ...form() });
    if (who !== "admin") {
      if (who === "anonymous") expectSignIn(response);
      else await expectAccessDenied(response);
      return expect(await rows()).toEqual(before);
    }
    expect(response.status).toBe(302);
    expect(await toastOf(response)).toMatchObject({ type: "success" });
    const after = await rows();
    // The "Set your password" invitation is queued in the outbox; its token is made when it is sent
    // (docs/decisions/110).
    expect(after).toMatchObject({ users: 1, plans: before.plans + 1, invitations: before.invitations + 1 });
    expect(after.quote.status).toBe("won");
  });
});

describe("/resources/media/:imageId", () => {
  const fetchMedia = (who: Who, imageId: string) =>
    callRoute(media.loader, `/resources/media/${imageId}`, { cookie: cookies[who], params: { imageId } });

  test.each(WHO)("%s opening customer A's media", async (who) => {
    for (const id of a.mediaIds) {
      const response = await fetchMedia(who, id);
      if (who === "customerA" || who === "admin") {
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toBe("image/png");
        expect(response.headers.get("Cache-Control")).toMatch(/^private/);
        expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
      } else {
        // B and the anonymous get what a missing id gets: the media's existence is not revealed.
        expect(response.status).toBe(404);
        const missing = await fetchMedia(who, "00000000-0000-4000-8000-000000000000");
        expect(missing.status).toBe(404);
        expect(await response.text()).toBe(await missing.text());
      }
    }
  });

  test.each(WHO)("%s opening customer B's media", async (who) => {
    for (const id of b.mediaIds) {
      const response = await fetchMedia(who, id);
      expect(response.status).toBe(who === "customerB" || who === "admin" ? 200 : 404);
    }
  });

  test.each(WHO)("%s guessing ids: unknown and malformed ids are 404, never a 500", async (who) => {
    for (const id of [
      "00000000-0000-4000-8000-000000000000",
      "not-a-uuid",
      "1 or 1=1",
      "../../etc/passwd",
      a.visitIds[0],
    ]) {
      expect((await fetchMedia(who, id)).status).toBe(404);
    }
  });
});

describe("/customer-dashboard/plan (Your Plan)", () => {
  // Plans of their own (on the real clock, first visit at least 3 days ahead), so that the
  // dashboard's lists above keep only the rows they were seeded with.
  let owner: TestUser;
  let other: TestUser;
  let planCookies: Record<Who, string | undefined>;
  let ownerPlan: { id: string; visitIds: string[] };
  let otherPlan: { id: string; visitIds: string[] };

  const planVisits = async (planId: string) =>
    (
      await db()
        .selectFrom("services")
        .select("id")
        .where("plan_id", "=", planId)
        .where("status", "=", "scheduled")
        .orderBy("service_date")
        .execute()
    ).map((v) => v.id);

  beforeAll(async () => {
    owner = await createUser(db(), { fullName: "Olive Owner" });
    other = await createUser(db(), { fullName: "Otto Other" });
    for (const [customer, set] of [
      [owner, (p: typeof ownerPlan) => (ownerPlan = p)],
      [other, (p: typeof otherPlan) => (otherPlan = p)],
    ] as const) {
      const plan = await startWeeklyPlanAhead(db(), { customerId: customer.id, adminId: users.admin.id });
      set({ id: plan.id, visitIds: await planVisits(plan.id) });
    }
    planCookies = {
      anonymous: undefined,
      customerA: await sessionCookieFor(owner.id),
      customerB: await sessionCookieFor(other.id),
      admin: cookies.admin,
    };
  });

  /** Everything a refused change must leave as it was: the plan, its visits, history and e-mails. */
  const planState = async (planId: string) => ({
    plan: await db().selectFrom("customer_plans").selectAll().where("id", "=", planId).executeTakeFirstOrThrow(),
    visits: await db()
      .selectFrom("services")
      .select(["id", "status", "skip_reason", "service_date"])
      .where("plan_id", "=", planId)
      .orderBy("service_date")
      .execute(),
    events: (await db().selectFrom("customer_plan_events").select("id").where("plan_id", "=", planId).execute()).length,
    outbox: (await db().selectFrom("outbox").select("id").where("related_id", "=", planId).execute()).length,
  });

  test.each(WHO)("loader, %s", async (who) => {
    const response = await callRoute(yourPlan.loader, "/customer-dashboard/plan", { cookie: planCookies[who] });
    if (who === "anonymous") return expectSignIn(response);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const text = await response.text();
    const data = JSON.parse(text);
    const mine = who === "customerA" ? ownerPlan : who === "customerB" ? otherPlan : null;
    const theirs = who === "customerA" ? otherPlan : who === "customerB" ? ownerPlan : null;
    if (!mine || !theirs) {
      // An admin's own customer page: their own (no) plan, nobody else's.
      expect(data.plan).toBeNull();
      for (const id of [ownerPlan.id, otherPlan.id, ...ownerPlan.visitIds, ...otherPlan.visitIds]) {
        expect(text).not.toContain(id);
      }
      return;
    }
    expect(data.plan.id).toBe(mine.id);
    expect(data.visits.map((v: { id: string }) => v.id)).toEqual(mine.visitIds);
    for (const id of [theirs.id, ...theirs.visitIds]) expect(text).not.toContain(id);
  });

  // Each change tried on the owner's plan by everyone else first (nothing changes), then by the
  // owner (it does), in an order that leaves the next change possible.
  const changes: [string, () => Record<string, string>, string][] = [
    ["skip", () => ({ intent: "skip", visitId: ownerPlan.visitIds[1] }), "Visit skipped"],
    ["undo-skip", () => ({ intent: "undo-skip", visitId: ownerPlan.visitIds[1] }), "Skip undone"],
    ["pause", () => ({ intent: "pause", planId: ownerPlan.id, ...pauseDays() }), "Service paused"],
    ["resume", () => ({ intent: "resume", planId: ownerPlan.id }), "Service resumed"],
    ["cancel", () => ({ intent: "cancel", planId: ownerPlan.id }), "Plan cancelled"],
  ];
  const pauseDays = () => {
    const from = businessToday(new Date(Date.now() + 3 * 86_400_000));
    return { from, until: businessToday(new Date(Date.now() + 16 * 86_400_000)) };
  };

  test.each(changes)(
    "action %s: anonymous, customer B and an admin change nothing; customer A does",
    async (_, form, toast) => {
      for (const who of ["anonymous", "customerB", "admin"] as const) {
        const before = await planState(ownerPlan.id);
        const response = await callRoute(yourPlan.action, "/customer-dashboard/plan", {
          cookie: planCookies[who],
          form: form(),
        });
        if (who === "anonymous") expectSignIn(response);
        // Someone else's plan or visit is a 404, as a missing one is (an admin here acts as a customer).
        else expect(response.status).toBe(404);
        expect(await planState(ownerPlan.id)).toEqual(before);
      }
      const response = await callRoute(yourPlan.action, "/customer-dashboard/plan", {
        cookie: planCookies.customerA,
        form: form(),
      });
      expect(response.status).toBe(302);
      expect(await toastOf(response)).toMatchObject({ type: "success", message: toast });
    },
  );
});
