import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { action, loader } from "~/routes/admin-dashboard.bookings";
import { action as calComAction } from "~/routes/resources.webhooks.cal-com";
import { createCustomerReference } from "~/features/bookings/customer-reference.server";
import { useAppDatabase } from "../helpers/app-database";
import { CAL_COM_SECRET, calComBody, calComRequest, uid } from "../helpers/booking-webhooks";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";

const database = useAppDatabase();
const URL_PATH = "/admin-dashboard/bookings";

let admin: TestUser;
let adminCookie: string;
let customer: TestUser;
let customerCookie: string;

beforeEach(async () => {
  vi.stubEnv("CAL_COM_WEBHOOK_SECRET", CAL_COM_SECRET);
  if (!admin) {
    admin = await createUser(database.current.db, { email: `admin-${uid()}@example.com`, admin: true });
    adminCookie = await sessionCookieFor(admin.id);
    customer = await createUser(database.current.db, {
      email: `cust-${uid()}@example.com`,
      fullName: "Casey Customer",
    });
    customerCookie = await sessionCookieFor(customer.id);
  }
});
afterEach(() => vi.unstubAllEnvs());

/** A booking delivered by Cal.com, `days` from now, linked to `customerId` when given. */
async function deliver(options: { days?: number; customerId?: string; payload?: Record<string, unknown> } = {}) {
  const id = uid();
  const start = new Date(Date.now() + (options.days ?? 7) * 24 * 3600 * 1000);
  start.setUTCSeconds(0, 0);
  const body = calComBody(
    "cal-com-booking-created",
    { createdAt: new Date().toISOString() },
    {
      uid: id,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 30 * 60 * 1000).toISOString(),
      metadata: options.customerId ? { customer: createCustomerReference(options.customerId) } : {},
      attendees: [{ email: `someone-${id}@example.com`, name: "Someone" }],
      ...options.payload,
    },
  );
  const response = await callRoute(calComAction, "/resources/webhooks/cal-com", {
    method: "POST",
    ...calComRequest(body),
  });
  expect(response.status).toBe(200);
  return database.current.db.selectFrom("bookings").selectAll().where("external_id", "=", id).executeTakeFirstOrThrow();
}

const post = (form: Record<string, string>, cookie = adminCookie, url = URL_PATH) =>
  callRoute(action, url, { cookie, form });

async function visitsOf(bookingId: string) {
  return database.current.db.selectFrom("services").selectAll().where("booking_id", "=", bookingId).execute();
}

describe("the admin's Bookings page", () => {
  it("is for admins only, in loader and action", async () => {
    const booking = await deliver({ payload: { status: "PENDING" } });
    for (const cookie of ["", customerCookie]) {
      const page = await callRoute(loader, URL_PATH, { cookie });
      expect(page.status).toBe(302);
      const response = await post({ intent: "confirm", bookingId: booking.id }, cookie);
      expect(response.status).toBe(302);
      expect(locationOf(response)).not.toBe(URL_PATH);
    }
    const row = await database.current.db
      .selectFrom("bookings")
      .select("status")
      .where("id", "=", booking.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("pending");
  });

  it("lists upcoming soonest first and past latest first, and filters by status and Unmatched", async () => {
    const soon = await deliver({ days: 1, customerId: customer.id });
    const later = await deliver({ days: 2 });
    const past = await deliver({ days: -3, customerId: customer.id, payload: { status: "PENDING" } });
    const data = await (await callRoute(loader, URL_PATH, { cookie: adminCookie })).json();
    const upcomingIds = data.upcoming.rows.map((r: { id: string }) => r.id);
    expect(upcomingIds.indexOf(soon.id)).toBeLessThan(upcomingIds.indexOf(later.id));
    expect(data.past.rows.map((r: { id: string }) => r.id)).toContain(past.id);

    const unmatched = await (await callRoute(loader, `${URL_PATH}?unmatched=1`, { cookie: adminCookie })).json();
    const unmatchedIds = [...unmatched.upcoming.rows, ...unmatched.past.rows].map((r: { id: string }) => r.id);
    expect(unmatchedIds).toContain(later.id);
    expect(unmatchedIds).not.toContain(soon.id);

    const pending = await (await callRoute(loader, `${URL_PATH}?status=pending`, { cookie: adminCookie })).json();
    const pendingRows = [...pending.upcoming.rows, ...pending.past.rows];
    expect(pendingRows.every((r: { status: string }) => r.status === "pending")).toBe(true);
    expect(pendingRows.map((r: { id: string }) => r.id)).toContain(past.id);

    const invalid = await callRoute(loader, `${URL_PATH}?status=teleported`, { cookie: adminCookie });
    expect(invalid.status).toBe(400);
  });

  it("pages with a keyset cursor, never repeating a booking", async () => {
    for (let i = 0; i < 27; i++) await deliver({ days: 400 + i });
    const first = await (await callRoute(loader, URL_PATH, { cookie: adminCookie })).json();
    expect(first.upcoming.rows).toHaveLength(25);
    expect(first.upcoming.next).toBeTruthy();
    const second = await (
      await callRoute(loader, `${URL_PATH}?upcoming_after=${encodeURIComponent(first.upcoming.next)}`, {
        cookie: adminCookie,
      })
    ).json();
    const firstIds = new Set(first.upcoming.rows.map((r: { id: string }) => r.id));
    expect(second.upcoming.rows.length).toBeGreaterThan(0);
    expect(second.upcoming.rows.some((r: { id: string }) => firstIds.has(r.id))).toBe(false);
  });

  it("confirms a pending booking and cancels one, with the toasts", async () => {
    const pending = await deliver({ payload: { status: "PENDING" } });
    const confirm = await post({ intent: "confirm", bookingId: pending.id });
    expect(locationOf(confirm)).toBe(URL_PATH);
    expect(await toastOf(confirm)).toMatchObject({
      type: "success",
      message: "Success",
      description: "Booking confirmed",
    });
    const cancel = await post({ intent: "cancel", bookingId: pending.id });
    expect(await toastOf(cancel)).toMatchObject({ message: "Success", description: "Booking cancelled" });
    const row = await database.current.db
      .selectFrom("bookings")
      .select("status")
      .where("id", "=", pending.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("cancelled");

    // A cancelled booking can be neither confirmed nor cancelled again: 409, nothing changes.
    expect((await post({ intent: "confirm", bookingId: pending.id })).status).toBe(409);
    expect((await post({ intent: "cancel", bookingId: pending.id })).status).toBe(409);
  });

  it("assigns an unmatched booking to a customer by e-mail, once", async () => {
    const booking = await deliver();
    expect(booking.customer_id).toBeNull();
    const unknown = await post({ intent: "assign", bookingId: booking.id, customerEmail: "nobody@example.com" });
    expect(unknown.status).toBe(400);
    const toAdmin = await post({ intent: "assign", bookingId: booking.id, customerEmail: admin.email });
    expect(toAdmin.status).toBe(400);
    const ok = await post({ intent: "assign", bookingId: booking.id, customerEmail: customer.email.toUpperCase() });
    expect(await toastOf(ok)).toMatchObject({ message: "Success", description: "Customer assigned" });
    const other = await createUser(database.current.db, { email: `other-${uid()}@example.com` });
    expect((await post({ intent: "assign", bookingId: booking.id, customerEmail: other.email })).status).toBe(409);
    const row = await database.current.db
      .selectFrom("bookings")
      .select("customer_id")
      .where("id", "=", booking.id)
      .executeTakeFirstOrThrow();
    expect(row.customer_id).toBe(customer.id);
  });

  it("creates one scheduled visit from a booking, however often the button is pressed", async () => {
    const booking = await deliver({ customerId: customer.id });
    const form = { intent: "create-visit", bookingId: booking.id, serviceType: "Weekly Service" };
    const [a, b] = await Promise.all([post(form), post(form)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([302, 409]);
    const created = a.status === 302 ? a : b;
    expect(await toastOf(created)).toMatchObject({ message: "Success", description: "Visit created from booking" });
    expect((await post(form)).status).toBe(409);

    const visits = await visitsOf(booking.id);
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({
      customer_id: customer.id,
      service_type: "Weekly Service",
      status: "scheduled",
      created_by: admin.id,
    });
    expect(visits[0].service_date.toISOString()).toBe(booking.booking_date.toISOString());
  });

  it("refuses a visit for an unmatched booking, an unknown type or an unknown booking, storing nothing", async () => {
    const unmatched = await deliver();
    expect(
      (await post({ intent: "create-visit", bookingId: unmatched.id, serviceType: "Weekly Service" })).status,
    ).toBe(409);
    const linked = await deliver({ customerId: customer.id });
    expect((await post({ intent: "create-visit", bookingId: linked.id, serviceType: "Moon Landing" })).status).toBe(
      400,
    );
    expect(
      (
        await post({
          intent: "create-visit",
          bookingId: "00000000-0000-4000-8000-000000000000",
          serviceType: "Weekly Service",
        })
      ).status,
    ).toBe(404);
    expect((await post({ intent: "teleport", bookingId: linked.id })).status).toBe(400);
    expect(await visitsOf(unmatched.id)).toEqual([]);
    expect(await visitsOf(linked.id)).toEqual([]);
  });

  // Decision 076: one form per booking, the buttons it offers listed once in the loader's data.
  it("lists the buttons each booking offers, and a visit made from it", async () => {
    const rowOf = async (id: string) => {
      const data = await (await callRoute(loader, URL_PATH, { cookie: adminCookie })).json();
      return [...data.upcoming.rows, ...data.past.rows].find((r: { id: string }) => r.id === id);
    };
    // Sooner than every other test's bookings: on the first page.
    const unmatchedPending = await deliver({ days: 0.05, payload: { status: "PENDING" } });
    const linked = await deliver({ days: 0.06, customerId: customer.id });
    expect(await rowOf(unmatchedPending.id)).toMatchObject({
      actions: ["assign", "confirm", "cancel"],
      visitCreated: false,
      customer: null,
    });
    expect(await rowOf(linked.id)).toMatchObject({ actions: ["create-visit", "cancel"], visitCreated: false });
    await post({ intent: "create-visit", bookingId: linked.id, serviceType: "Weekly Service" });
    expect(await rowOf(linked.id)).toMatchObject({ actions: ["cancel"], visitCreated: true });
    await post({ intent: "cancel", bookingId: linked.id });
    expect(await rowOf(linked.id)).toMatchObject({ actions: [], visitCreated: true, status: "cancelled" });
  });

  it("acts on the pressed button's intent, whatever the form's other fields hold", async () => {
    // The one form of an unmatched pending booking posts its (empty) e-mail field with Confirm.
    const pending = await deliver({ days: 4, payload: { status: "PENDING" } });
    const confirm = await post({ bookingId: pending.id, customerEmail: "", intent: "confirm" });
    expect(await toastOf(confirm)).toMatchObject({ description: "Booking confirmed" });
    const row = await database.current.db
      .selectFrom("bookings")
      .select(["status", "customer_id"])
      .where("id", "=", pending.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "confirmed", customer_id: null });
    // Assign with that field empty is refused, and stores nothing.
    const assign = await post({ bookingId: pending.id, customerEmail: "", intent: "assign" });
    expect(assign.status).toBe(400);
    expect((await assign.json()).toast).toMatchObject({ description: "Enter the customer's e-mail" });
    const after = await database.current.db
      .selectFrom("bookings")
      .select("customer_id")
      .where("id", "=", pending.id)
      .executeTakeFirstOrThrow();
    expect(after.customer_id).toBeNull();
    // Cancel of a linked booking posts the visit type field too: cancelled, no visit made.
    const linked = await deliver({ days: 5, customerId: customer.id });
    const cancel = await post({ bookingId: linked.id, serviceType: "Weekly Service", intent: "cancel" });
    expect(await toastOf(cancel)).toMatchObject({ description: "Booking cancelled" });
    expect(await visitsOf(linked.id)).toEqual([]);
  });
});
