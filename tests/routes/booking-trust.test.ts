import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { action, loader } from "~/routes/admin-dashboard.bookings";
import { loader as dashboardLoader } from "~/routes/customer-dashboard";
import { action as calComAction } from "~/routes/resources.webhooks.cal-com";
import { createCustomerReference } from "~/features/bookings/customer-reference.server";
import { useAppDatabase } from "../helpers/app-database";
import { CAL_COM_SECRET, calComBody, calComRequest, uid } from "../helpers/booking-webhooks";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, toastOf } from "../helpers/route-calls";

/**
 * Issue 24, items 4 and 10 (decisions 045 and 046), each attack written as a test: a stranger
 * types a customer's e-mail into the public calendar; a booking is cancelled or moved in the
 * calendar (or by the admin) while its visit stays behind; a reschedule offers a second visit.
 */

const database = useAppDatabase();
const BOOKINGS = "/admin-dashboard/bookings";
const DAY = 24 * 3600 * 1000;

let admin: TestUser;
let adminCookie: string;

beforeEach(async () => {
  vi.stubEnv("CAL_COM_WEBHOOK_SECRET", CAL_COM_SECRET);
  if (!admin) {
    admin = await createUser(database.current.db, { email: `admin-${uid()}@example.com`, admin: true });
    adminCookie = await sessionCookieFor(admin.id);
  }
});
afterEach(() => vi.unstubAllEnvs());

/** Each delivery is stamped a little later than the one before: the calendar's own order. */
let clock = Date.now();
const stamp = () => new Date((clock += 1000)).toISOString();

async function deliver(trigger: string, payload: Record<string, unknown>) {
  const response = await callRoute(calComAction, "/resources/webhooks/cal-com", {
    method: "POST",
    ...calComRequest(calComBody(trigger, { createdAt: stamp() }, payload)),
  });
  expect(response.status).toBe(200);
  return response;
}

const startIn = (days: number) => {
  const start = new Date(Date.now() + days * DAY);
  start.setUTCSeconds(0, 0);
  return { startTime: start.toISOString(), endTime: new Date(start.getTime() + 30 * 60_000).toISOString() };
};

/** A booking made through the customer's own dashboard link (a signed reference). */
async function bookedBy(customer: TestUser, days = 10) {
  const id = uid();
  await deliver("cal-com-booking-created", {
    uid: id,
    ...startIn(days),
    metadata: { customer: createCustomerReference(customer.id) },
    attendees: [{ email: customer.email, name: customer.fullName }],
  });
  return bookingByUid(id);
}

const bookingByUid = (id: string) =>
  database.current.db.selectFrom("bookings").selectAll().where("external_id", "=", id).executeTakeFirstOrThrow();
const bookingById = (id: string) =>
  database.current.db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const visitById = (id: string) =>
  database.current.db.selectFrom("services").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const eventsOf = (visitId: string) =>
  database.current.db
    .selectFrom("service_events")
    .selectAll()
    .where("service_id", "=", visitId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();

const post = (form: Record<string, string>) => callRoute(action, BOOKINGS, { cookie: adminCookie, form });

/** The booking as the admin's page lists it (all of this file's bookings are upcoming). */
async function adminRow(bookingId: string) {
  let url = BOOKINGS;
  for (;;) {
    const data = await (await callRoute(loader, url, { cookie: adminCookie })).json();
    const row = data.upcoming.rows.find((r: { id: string }) => r.id === bookingId);
    if (row || !data.upcoming.next) return row;
    url = `${BOOKINGS}?upcoming_after=${encodeURIComponent(data.upcoming.next)}`;
  }
}

async function createVisitFrom(bookingId: string) {
  const response = await post({ intent: "create-visit", bookingId, serviceType: "Weekly Service" });
  expect(await toastOf(response)).toMatchObject({ description: "Visit created from booking" });
  return database.current.db
    .selectFrom("services")
    .selectAll()
    .where("booking_id", "=", bookingId)
    .executeTakeFirstOrThrow();
}

async function dashboardBookingIds(customer: TestUser) {
  const response = await callRoute(dashboardLoader, "/customer-dashboard", {
    cookie: await sessionCookieFor(customer.id),
  });
  expect(response.status).toBe(200);
  return ((await response.json()).bookings as { id: string }[]).map((b) => b.id);
}

describe("a booking by e-mail alone (item 4)", () => {
  it("a stranger's booking with a verified customer's e-mail is Unmatched, on no dashboard, and one press assigns it", async () => {
    const victim = await createUser(database.current.db, {
      email: `Victim-${uid()}@example.com`,
      fullName: "Vera Victim",
    });
    // The stranger opens the public calendar (no signed reference) and types the victim's address.
    const id = uid("stranger");
    await deliver("cal-com-booking-created", {
      uid: id,
      ...startIn(0.2),
      metadata: {},
      attendees: [{ email: victim.email.toLowerCase(), name: "Not Vera" }],
    });
    const booking = await bookingByUid(id);
    expect(booking.customer_id).toBeNull();
    expect(await dashboardBookingIds(victim)).not.toContain(booking.id);

    // The admin sees it Unmatched, with the hint, and the Assign button's field holds the match.
    const row = await adminRow(booking.id);
    expect(row).toMatchObject({
      customer: null,
      emailMatch: { name: "Vera Victim", email: victim.email, verified: true },
      actions: ["assign", "cancel"],
    });

    // One press: the form posts the prefilled e-mail.
    const assigned = await post({ intent: "assign", bookingId: booking.id, customerEmail: row.emailMatch.email });
    expect(await toastOf(assigned)).toMatchObject({ message: "Success", description: "Customer assigned" });
    expect((await bookingById(booking.id)).customer_id).toBe(victim.id);
    expect(await dashboardBookingIds(victim)).toContain(booking.id);
  });

  it("a hint says when the matching customer's e-mail is unverified; no match, no hint", async () => {
    const unverified = await createUser(database.current.db, {
      email: `unverified-${uid()}@example.com`,
      fullName: "Uma Unverified",
      verified: false,
    });
    const [a, b] = [uid(), uid()];
    await deliver("cal-com-booking-created", {
      uid: a,
      ...startIn(0.21),
      metadata: {},
      attendees: [{ email: unverified.email.toUpperCase(), name: "U" }],
    });
    await deliver("cal-com-booking-created", {
      uid: b,
      ...startIn(0.22),
      metadata: {},
      attendees: [{ email: `nobody-${uid()}@example.com`, name: "N" }],
    });
    expect((await adminRow((await bookingByUid(a)).id)).emailMatch).toEqual({
      name: "Uma Unverified",
      email: unverified.email,
      verified: false,
    });
    expect((await adminRow((await bookingByUid(b)).id)).emailMatch).toBeNull();
  });

  it("an admin's address is no match, and a booking by reference still links at once", async () => {
    const other = await createUser(database.current.db, { email: `admin2-${uid()}@example.com`, admin: true });
    const id = uid();
    await deliver("cal-com-booking-created", {
      uid: id,
      ...startIn(0.23),
      metadata: {},
      attendees: [{ email: other.email, name: "A" }],
    });
    const booking = await bookingByUid(id);
    expect(booking.customer_id).toBeNull();
    expect((await adminRow(booking.id)).emailMatch).toBeNull();

    const customer = await createUser(database.current.db, { email: `ref-${uid()}@example.com` });
    const linked = await bookedBy(customer);
    expect(linked.customer_id).toBe(customer.id);
    expect(await dashboardBookingIds(customer)).toContain(linked.id);
  });
});

describe("bookings drive their visits (item 10)", () => {
  it("a booking cancelled in the calendar cancels its scheduled visit, with the reason in its history", async () => {
    const customer = await createUser(database.current.db);
    const booking = await bookedBy(customer);
    const visit = await createVisitFrom(booking.id);
    await deliver("cal-com-booking-cancelled", { uid: booking.external_id });
    expect((await bookingById(booking.id)).status).toBe("cancelled");
    expect((await visitById(visit.id)).status).toBe("cancelled");
    const events = await eventsOf(visit.id);
    expect(events.at(-1)).toMatchObject({
      kind: "status",
      from_status: "scheduled",
      to_status: "cancelled",
      detail: "Booking cancelled",
      actor_id: null,
    });
    // The same delivery again changes nothing and writes no second line.
    await deliver("cal-com-booking-cancelled", { uid: booking.external_id });
    expect(await eventsOf(visit.id)).toHaveLength(events.length);
  });

  it("a booking the admin cancels cancels its scheduled visit, in the admin's name", async () => {
    const customer = await createUser(database.current.db);
    const booking = await bookedBy(customer);
    const visit = await createVisitFrom(booking.id);
    const response = await post({ intent: "cancel", bookingId: booking.id });
    expect(await toastOf(response)).toMatchObject({ description: "Booking cancelled" });
    expect((await visitById(visit.id)).status).toBe("cancelled");
    expect((await eventsOf(visit.id)).at(-1)).toMatchObject({
      to_status: "cancelled",
      detail: "Booking cancelled",
      actor_id: admin.id,
    });
  });

  it("a reschedule moves the scheduled visit to the new time and to the new booking, with a history line", async () => {
    const customer = await createUser(database.current.db);
    const booking = await bookedBy(customer, 10);
    const visit = await createVisitFrom(booking.id);
    const newId = uid("new");
    const later = startIn(12);
    await deliver("cal-com-booking-rescheduled", {
      uid: newId,
      rescheduleUid: booking.external_id,
      metadata: {},
      ...later,
    });
    const replacement = await bookingByUid(newId);
    expect((await bookingById(booking.id)).status).toBe("rescheduled");
    const moved = await visitById(visit.id);
    expect(moved).toMatchObject({ status: "scheduled", booking_id: replacement.id });
    expect(moved.service_date.toISOString()).toBe(later.startTime);
    const line = (await eventsOf(visit.id)).at(-1)!;
    expect(line).toMatchObject({ kind: "rescheduled", from_status: "scheduled", to_status: "scheduled" });
    // Dates in business time (Pacific), as the admin reads them, never a UTC ISO string.
    expect(line.detail).toMatch(
      /^From [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M to .*: the booking was rescheduled$/,
    );
    expect(line.detail).not.toContain("Z");

    // The new booking shows its visit and offers no second one; the old one offers nothing.
    expect(await adminRow(replacement.id)).toMatchObject({ visitCreated: true, actions: ["cancel"] });
    expect(await adminRow(booking.id)).toMatchObject({ visitCreated: false, actions: [] });

    // Then cancelled in the calendar: the moved visit is cancelled with it.
    await deliver("cal-com-booking-cancelled", { uid: newId });
    expect((await visitById(visit.id)).status).toBe("cancelled");
  });

  it.each(["completed", "missed"] as const)(
    "neither a cancellation nor a reschedule touches a %s visit",
    async (status) => {
      const customer = await createUser(database.current.db);
      const cancelledBooking = await bookedBy(customer);
      const movedBooking = await bookedBy(customer);
      const visits = [await createVisitFrom(cancelledBooking.id), await createVisitFrom(movedBooking.id)];
      await database.current.db
        .updateTable("services")
        .set({
          status,
          ...(status === "missed" ? { missed_reason: "weather" as const } : { completed_at: new Date() }),
        })
        .where(
          "id",
          "in",
          visits.map((v) => v.id),
        )
        .execute();
      const before = await Promise.all(visits.map((v) => visitById(v.id)));

      await deliver("cal-com-booking-cancelled", { uid: cancelledBooking.external_id });
      const newId = uid("new");
      await deliver("cal-com-booking-rescheduled", {
        uid: newId,
        rescheduleUid: movedBooking.external_id,
        metadata: {},
        ...startIn(20),
      });
      expect(await Promise.all(visits.map((v) => visitById(v.id)))).toEqual(before);
      for (const v of visits) expect(await eventsOf(v.id)).toEqual([]);

      // The replacement of a booking whose visit happened offers no "Create Visit", and the
      // action refuses it whatever the page showed: no second visit at the new time.
      const replacement = await bookingByUid(newId);
      expect(replacement.customer_id).toBe(customer.id);
      expect(await adminRow(replacement.id)).toMatchObject({ visitCreated: false, actions: ["cancel"] });
      const refused = await post({ intent: "create-visit", bookingId: replacement.id, serviceType: "Weekly Service" });
      expect(refused.status).toBe(409);
      expect((await refused.json()).toast).toMatchObject({
        description: "The booking this one replaced already has a visit",
      });
      const count = await database.current.db
        .selectFrom("services")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("booking_id", "=", replacement.id)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    },
  );

  it("a booking rescheduled twice still offers no visit when the first one had one", async () => {
    const customer = await createUser(database.current.db);
    const first = await bookedBy(customer);
    const visit = await createVisitFrom(first.id);
    await database.current.db
      .updateTable("services")
      .set({ status: "completed", completed_at: new Date() })
      .where("id", "=", visit.id)
      .execute();
    const [second, third] = [uid("second"), uid("third")];
    await deliver("cal-com-booking-rescheduled", { uid: second, rescheduleUid: first.external_id, ...startIn(14) });
    await deliver("cal-com-booking-rescheduled", { uid: third, rescheduleUid: second, ...startIn(15) });
    const last = await bookingByUid(third);
    expect(await adminRow(last.id)).toMatchObject({ actions: ["cancel"] });
    expect((await post({ intent: "create-visit", bookingId: last.id, serviceType: "Weekly Service" })).status).toBe(
      409,
    );
  });

  it("a reschedule of a booking without a visit still offers Create Visit", async () => {
    const customer = await createUser(database.current.db);
    const booking = await bookedBy(customer);
    const newId = uid("new");
    await deliver("cal-com-booking-rescheduled", { uid: newId, rescheduleUid: booking.external_id, ...startIn(16) });
    const replacement = await bookingByUid(newId);
    expect(await adminRow(replacement.id)).toMatchObject({ actions: ["create-visit", "cancel"] });
    const visit = await createVisitFrom(replacement.id);
    expect(visit.service_date.toISOString()).toBe(replacement.booking_date.toISOString());
  });
});
