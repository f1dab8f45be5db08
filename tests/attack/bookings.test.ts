import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { startInProcessServer, type InProcessServer } from "../helpers/in-process-server";
import { CAL_COM_SECRET, calComBody, calComRequest, uid } from "../helpers/booking-webhooks";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { createCustomerReference } from "~/features/bookings/customer-reference.server";

/**
 * The attacker's probe of issue 24 items 4, 10 and 11, over HTTP against the production build:
 * the build runs in this process behind server.js's middleware on a real socket
 * (tests/helpers/in-process-server.ts), on the test database. Pages are read as a browser
 * without JavaScript reads them (HTML), and forms are posted as such a browser posts them.
 */

const database = useAppDatabase();
const db = () => database.current.db;
const DAY = 24 * 3600 * 1000;
let server: InProcessServer;
let base = "";
let dataDir: string;
let admin: TestUser;
let adminCookie = "";

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "attack-bookings-"));
  process.env.DATA_DIR = dataDir;
  process.env.CAL_COM_WEBHOOK_SECRET = CAL_COM_SECRET;
  server = await startInProcessServer({ cspNonce: "attack" });
  base = server.base;

  admin = await createUser(db(), { email: `admin-${uid()}@example.com`, admin: true });
  adminCookie = await sessionCookieFor(admin.id);
}, 240_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  delete process.env.CAL_COM_WEBHOOK_SECRET;
});

// ------------------------------------------------------------------------------------------

const get = (path: string, cookie: string) =>
  fetch(`${base}${path}`, { redirect: "manual", headers: { Cookie: cookie } });

/** A form posted as a browser without JavaScript posts it: urlencoded, from our own origin. */
const postForm = (path: string, cookie: string, form: Record<string, string>) =>
  fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams(form),
  });

let clock = Date.now();
async function calendar(trigger: string, payload: Record<string, unknown>, signature: string | null = "sign") {
  const { body, headers } = calComRequest(
    calComBody(trigger, { createdAt: new Date((clock += 1000)).toISOString() }, payload),
    signature,
  );
  return fetch(`${base}/resources/webhooks/cal-com`, { method: "POST", body, headers });
}

const startIn = (days: number) => {
  const start = new Date(Date.now() + days * DAY);
  start.setUTCSeconds(0, 0);
  return { startTime: start.toISOString(), endTime: new Date(start.getTime() + 30 * 60_000).toISOString() };
};

const bookingByUid = (id: string) =>
  db().selectFrom("bookings").selectAll().where("external_id", "=", id).executeTakeFirstOrThrow();
const visitById = (id: string) =>
  db().selectFrom("services").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const bookingCount = async () =>
  Number(
    (
      await db()
        .selectFrom("bookings")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The customer's own booking through the dashboard's link, and the visit the admin makes of it. */
async function bookedWithVisit(customer: TestUser, days: number) {
  const id = uid();
  const delivered = await calendar("cal-com-booking-created", {
    uid: id,
    ...startIn(days),
    metadata: { customer: createCustomerReference(customer.id) },
    attendees: [{ email: customer.email, name: customer.fullName }],
  });
  expect(delivered.status).toBe(200);
  const booking = await bookingByUid(id);
  const made = await postForm("/admin-dashboard/bookings", adminCookie, {
    intent: "create-visit",
    bookingId: booking.id,
    serviceType: "Weekly Service",
  });
  expect(made.status).toBe(302);
  const visit = await db()
    .selectFrom("services")
    .selectAll()
    .where("booking_id", "=", booking.id)
    .executeTakeFirstOrThrow();
  return { booking, visit };
}

describe("item 4: a stranger types a customer's e-mail into the public calendar", () => {
  test("the booking is Unmatched, on no dashboard; the admin's one press (JS off) assigns it", async () => {
    const victim = await createUser(db(), { email: `vera-${uid()}@example.com`, fullName: "Vera Victim" });
    const victimCookie = await sessionCookieFor(victim.id);
    const id = uid("stranger");
    const delivered = await calendar("cal-com-booking-created", {
      uid: id,
      ...startIn(3),
      metadata: {},
      attendees: [{ email: victim.email.toUpperCase(), name: "Not Vera" }],
    });
    expect(delivered.status).toBe(200);
    const booking = await bookingByUid(id);
    expect(booking.customer_id).toBeNull();

    const dashboard = await (await get("/customer-dashboard", victimCookie)).text();
    expect(dashboard).toContain("No upcoming bookings");

    const page = await get("/admin-dashboard/bookings?unmatched=1", adminCookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Matches customer Vera Victim by e-mail");
    // The Assign form's e-mail field already holds the match: one press posts it.
    const card = html.slice(html.indexOf("Matches customer Vera Victim"));
    expect(card).toMatch(new RegExp(`name="customerEmail"[^>]*value="${victim.email.replace(/[.]/g, "\\.")}"`));
    expect(card.slice(0, card.indexOf("</form>"))).toContain(">Assign Customer</button>");

    const assigned = await postForm("/admin-dashboard/bookings?unmatched=1", adminCookie, {
      bookingId: booking.id,
      customerEmail: victim.email,
      intent: "assign",
    });
    expect(assigned.status).toBe(302);
    expect((await bookingByUid(id)).customer_id).toBe(victim.id);
    expect(await (await get("/customer-dashboard", victimCookie)).text()).not.toContain("No upcoming bookings");
  });

  test("a forged or unsigned delivery stores nothing; a forged reference links nobody", async () => {
    const before = await bookingCount();
    expect((await calendar("cal-com-booking-created", { uid: uid() }, null)).status).toBe(401);
    expect((await calendar("cal-com-booking-created", { uid: uid() }, "0".repeat(64))).status).toBe(401);
    expect(await bookingCount()).toBe(before);

    const victim = await createUser(db());
    const reference = createCustomerReference(victim.id);
    const forged = `${reference.split(".").slice(0, 2).join(".")}.${"A".repeat(32)}`;
    const id = uid();
    await calendar("cal-com-booking-created", { uid: id, metadata: { customer: forged }, ...startIn(4) });
    expect((await bookingByUid(id)).customer_id).toBeNull();
  });

  test("a customer cannot reach the admin's Bookings page or its buttons", async () => {
    const customer = await createUser(db());
    const cookie = await sessionCookieFor(customer.id);
    expect((await get("/admin-dashboard/bookings", cookie)).status).toBe(302);
    const id = uid();
    await calendar("cal-com-booking-created", { uid: id, metadata: {}, ...startIn(5) });
    const booking = await bookingByUid(id);
    const response = await postForm("/admin-dashboard/bookings", cookie, {
      intent: "assign",
      bookingId: booking.id,
      customerEmail: customer.email,
    });
    expect(response.status).toBe(302);
    expect((await bookingByUid(id)).customer_id).toBeNull();
  });
});

describe("item 10: bookings and visits never drift apart", () => {
  test("a cancellation in the calendar cancels the scheduled visit; its page says why", async () => {
    const customer = await createUser(db());
    const { booking, visit } = await bookedWithVisit(customer, 6);
    expect((await calendar("cal-com-booking-cancelled", { uid: booking.external_id })).status).toBe(200);
    expect((await visitById(visit.id)).status).toBe("cancelled");
    const page = await (await get(`/admin-dashboard/visits/${visit.id}`, adminCookie)).text();
    expect(page).toContain("Booking cancelled");
  });

  test("the admin's Cancel cancels the scheduled visit too", async () => {
    const customer = await createUser(db());
    const { booking, visit } = await bookedWithVisit(customer, 7);
    const cancelled = await postForm("/admin-dashboard/bookings", adminCookie, {
      intent: "cancel",
      bookingId: booking.id,
    });
    expect(cancelled.status).toBe(302);
    expect((await visitById(visit.id)).status).toBe("cancelled");
  });

  test("a reschedule moves the visit and offers no second one; a completed visit is left alone", async () => {
    const customer = await createUser(db());
    const moving = await bookedWithVisit(customer, 8);
    const done = await bookedWithVisit(customer, 9);
    await db()
      .updateTable("services")
      .set({ status: "completed", completed_at: new Date() })
      .where("id", "=", done.visit.id)
      .execute();
    const completedBefore = await visitById(done.visit.id);

    const [movedId, doneId] = [uid("moved"), uid("again")];
    const later = startIn(11);
    await calendar("cal-com-booking-rescheduled", {
      uid: movedId,
      rescheduleUid: moving.booking.external_id,
      metadata: {},
      ...later,
    });
    await calendar("cal-com-booking-rescheduled", {
      uid: doneId,
      rescheduleUid: done.booking.external_id,
      metadata: {},
      ...startIn(12),
    });
    const moved = await visitById(moving.visit.id);
    expect(moved.service_date.toISOString()).toBe(later.startTime);
    expect(moved.booking_id).toBe((await bookingByUid(movedId)).id);
    expect(await visitById(done.visit.id)).toEqual(completedBefore);

    // Neither replacement offers Create Visit on the page, and pressing it anyway is refused.
    const html = await (await get("/admin-dashboard/bookings", adminCookie)).text();
    const cards = html.split('data-testid="booking"').filter((card) => card.includes(customer.email));
    expect(cards).toHaveLength(4);
    for (const card of cards) expect(card).not.toContain(">Create Visit</button>");
    for (const id of [movedId, doneId]) {
      const refused = await postForm("/admin-dashboard/bookings", adminCookie, {
        intent: "create-visit",
        bookingId: (await bookingByUid(id)).id,
        serviceType: "Weekly Service",
      });
      expect(refused.status).toBe(409);
    }
    const visits = await db().selectFrom("services").select("id").where("customer_id", "=", customer.id).execute();
    expect(visits).toHaveLength(2);
  });
});

describe("item 11: the smaller leaks", () => {
  test("a customer's All visits link answers 200 with last year's and next year's visits", async () => {
    const customer = await createUser(db(), { fullName: "Lena Longtime" });
    for (const days of [-350, 350]) {
      await db()
        .insertInto("services")
        .values({
          customer_id: customer.id,
          service_type: "Desert Dash",
          service_date: new Date(Date.now() + days * DAY),
          status: days < 0 ? "completed" : "scheduled",
        })
        .execute();
    }
    const page = await (await get(`/admin-dashboard/customers/${customer.id}`, adminCookie)).text();
    const href = /href="(\/admin-dashboard\/visits\?[^"]*)"/.exec(page)?.[1]?.replace(/&amp;/g, "&");
    expect(href).toContain(`customer=${customer.id}`);
    const list = await get(href!, adminCookie);
    expect(list.status).toBe(200);
    expect((await list.text()).match(/Desert Dash/g)).toHaveLength(2);
  });

  test("the Visits list filters by a customer search without JavaScript; nonsense is a 400, never a 500", async () => {
    const customer = await createUser(db(), { email: `quill-${uid()}@example.com`, fullName: "Quinn Quill" });
    await db()
      .insertInto("services")
      .values({ customer_id: customer.id, service_type: "Yard Refresh", service_date: new Date(Date.now() + 3600_000) })
      .execute();
    const found = await get("/admin-dashboard/visits?q=quill", adminCookie);
    expect(found.status).toBe(200);
    const html = await found.text();
    expect(html).toContain("Quinn Quill");
    expect(html).toMatch(/name="q"[^>]*value="quill"|value="quill"[^>]*name="q"/);
    const none = await (await get("/admin-dashboard/visits?q=nobody-by-that-name", adminCookie)).text();
    expect(none).toContain("No visits in this range.");
    for (const q of ["a".repeat(101), "%00", "%", "'--", "\u0000x"]) {
      const response = await get(`/admin-dashboard/visits?q=${encodeURIComponent(q)}`, adminCookie);
      expect(response.status).toBeLessThan(500);
    }
    const customerCookie = await sessionCookieFor(customer.id);
    expect((await get("/admin-dashboard/visits?q=quill", customerCookie)).status).toBe(302);
  });

  test('the Customers list says "(unverified)" beside an unverified customer', async () => {
    const tag = `mark${uid()}`;
    await createUser(db(), { email: `${tag}@example.com`, fullName: "Una Unverified", verified: false });
    const html = await (await get(`/admin-dashboard/customers?q=${tag}`, adminCookie)).text();
    expect(html).toContain(`${tag}@example.com (unverified)`);
  });
});
