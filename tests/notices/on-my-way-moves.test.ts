import { sql } from "kysely";
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { migrations } from "../../db/migrations";
import { createMigrator } from "../../db/migrator";
import { useAppDatabase } from "../helpers/app-database";
import { CAL_COM_SECRET, calComBody, calComRequest, uid } from "../helpers/booking-webhooks";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { customerWithTuesdayPlan, WEEKLY_PLAN } from "../helpers/plan-seed";
import { callRoute, toastOf } from "../helpers/route-calls";
import { getSiteSettings } from "~/content/content.server";
import { createCustomerReference } from "~/features/bookings/customer-reference.server";
import { sendOnMyWay } from "~/features/notices/on-my-way.server";
import { changePlan } from "~/features/plans/plan-changes.server";
import { generatePlanVisits } from "~/features/plans/visit-generator.server";
import { businessToday } from "~/features/visits/visit-dates";
import { action as bookingsAction } from "~/routes/admin-dashboard.bookings";
import { action as visitAction } from "~/routes/admin-dashboard.visits.$visitId";
import { loader as customerVisitLoader } from "~/routes/customer-dashboard_.visits.$visitId";
import { action as calComAction } from "~/routes/resources.webhooks.cal-com";
import { BUSINESS_TIME_ZONE } from "~/utils/business-time";

/**
 * Issue 35, item 2 (docs/decisions/108): "On my way" belongs to a visit's day. Each way a visit's
 * date changes (the admin's Reschedule, a Cal.com reschedule, the generator's closed-day move, a
 * plan change) is pressed on the old day, moved to another, and then: nothing says "On the way"
 * and the new day sends its own notice (an e-mail of its own, not dropped as a duplicate).
 */

const database = useAppDatabase();
const db = () => database.current.db;
let admin: TestUser;
let customer: TestUser;
let adminCookie: string;
let customerCookie: string;

// Tuesday 2 April 2030, Las Vegas (PDT, UTC-7): the visit at 11:00, "On my way" at 10:00.
const TUESDAY_10AM = new Date("2030-04-02T17:00:00Z");
const TUESDAY_11AM = new Date("2030-04-02T18:00:00Z");
const WEDNESDAY_10AM = new Date("2030-04-03T17:00:00Z");

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  customer = await createUser(db(), { fullName: "Mo Mover" });
  adminCookie = await sessionCookieFor(admin.id);
  customerCookie = await sessionCookieFor(customer.id);
});
beforeEach(() => vi.stubEnv("CAL_COM_WEBHOOK_SECRET", CAL_COM_SECRET));
afterEach(() => vi.unstubAllEnvs());

async function visitAt(date: Date, customerId = customer.id) {
  return db()
    .insertInto("services")
    .values({ customer_id: customerId, service_type: "Weekly Service", service_date: date, status: "scheduled" })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const read = (visitId: string) =>
  db().selectFrom("services").selectAll().where("id", "=", visitId).executeTakeFirstOrThrow();

/** The visit's "On my way" e-mails, oldest first. */
const onMyWayEmails = (visitId: string) =>
  db()
    .selectFrom("outbox")
    .select(["kind", "dedupe_key"])
    .where("related_id", "=", visitId)
    .where("kind", "=", "on_my_way")
    .orderBy("created_at")
    .execute();

const press = (visitId: string, now: Date) => sendOnMyWay({ visitId, adminId: admin.id, now });

async function customerSeesOnTheWay(visitId: string, cookie = customerCookie): Promise<string | null> {
  const page = await callRoute(customerVisitLoader, `/customer-dashboard/visits/${visitId}`, {
    cookie,
    params: { visitId },
  });
  expect(page.status).toBe(200);
  return (await page.json()).visit.onTheWaySince;
}

/** After the move: no "On the way" anywhere, and the new day's press sends its own e-mail. */
async function expectNewDaySendsItsOwn(visitId: string, newDayNow: Date, cookie = customerCookie) {
  const moved = await read(visitId);
  expect(moved.on_my_way_at).toBeNull();
  expect(await customerSeesOnTheWay(visitId, cookie)).toBeNull();
  const again = await press(visitId, newDayNow);
  expect(again.kind).toBe("sent");
  const emails = await onMyWayEmails(visitId);
  expect(emails).toHaveLength(2);
  expect(new Set(emails.map((email) => email.dedupe_key)).size).toBe(2);
  expect((await read(visitId)).on_my_way_at?.toISOString()).toBe(newDayNow.toISOString());
  expect(await customerSeesOnTheWay(visitId, cookie)).toMatch(/\d{1,2}:\d{2} (AM|PM)/);
}

describe("On my way belongs to the visit's day", () => {
  test("the admin's Reschedule to another day clears it; the new day sends its own", async () => {
    const visit = await visitAt(TUESDAY_11AM);
    expect((await press(visit.id, TUESDAY_10AM)).kind).toBe("sent");
    expect(await customerSeesOnTheWay(visit.id)).toMatch(/\d{1,2}:\d{2} (AM|PM)/);

    const response = await callRoute(visitAction, `/admin-dashboard/visits/${visit.id}`, {
      cookie: adminCookie,
      params: { visitId: visit.id },
      form: { intent: "reschedule", serviceDate: "2030-04-03T11:00" },
    });
    expect(response.status).toBe(302);
    expect((await toastOf(response))?.type).toBe("success");
    expect((await read(visit.id)).service_date.toISOString()).toBe("2030-04-03T18:00:00.000Z");
    await expectNewDaySendsItsOwn(visit.id, WEDNESDAY_10AM);
  });

  test("a move within the same day keeps it: the technician is still on the way", async () => {
    const visit = await visitAt(TUESDAY_11AM);
    expect((await press(visit.id, TUESDAY_10AM)).kind).toBe("sent");
    const response = await callRoute(visitAction, `/admin-dashboard/visits/${visit.id}`, {
      cookie: adminCookie,
      params: { visitId: visit.id },
      form: { intent: "reschedule", serviceDate: "2030-04-02T15:00" },
    });
    expect(response.status).toBe(302);
    expect((await read(visit.id)).on_my_way_at?.toISOString()).toBe(TUESDAY_10AM.toISOString());
    expect((await press(visit.id, TUESDAY_10AM)).kind).toBe("already");
    expect(await onMyWayEmails(visit.id)).toHaveLength(1);
  });

  test("the day is the Las Vegas calendar's, not UTC's, whatever code moves the visit", async () => {
    // 5:30 PM on Tuesday is Wednesday 00:30 in UTC; 8 AM on Wednesday is the same UTC date.
    const evening = await visitAt(new Date("2030-04-03T00:30:00Z"));
    expect((await press(evening.id, new Date("2030-04-03T00:00:00Z"))).kind).toBe("sent");
    await db()
      .updateTable("services")
      .set({ service_date: new Date("2030-04-03T15:00:00Z") })
      .where("id", "=", evening.id)
      .execute();
    expect((await read(evening.id)).on_my_way_at).toBeNull();

    // 8 PM on Tuesday (Wednesday 03:00 UTC) to 8 AM on Tuesday (Tuesday 15:00 UTC): one day.
    const late = await visitAt(new Date("2030-04-03T03:00:00Z"));
    expect((await press(late.id, new Date("2030-04-03T02:00:00Z"))).kind).toBe("sent");
    await db()
      .updateTable("services")
      .set({ service_date: new Date("2030-04-02T15:00:00Z") })
      .where("id", "=", late.id)
      .execute();
    expect((await read(late.id)).on_my_way_at).not.toBeNull();
  });

  test("a Cal.com reschedule to another day clears it; the new day sends its own", async () => {
    const booked = await createUser(db(), { fullName: "Bo Booker" });
    const cookie = await sessionCookieFor(booked.id);
    const start = new Date(Date.now() + 10 * 24 * 3600_000);
    start.setUTCSeconds(0, 0);
    const deliver = async (trigger: string, payload: Record<string, unknown>) => {
      const response = await callRoute(calComAction, "/resources/webhooks/cal-com", {
        method: "POST",
        ...calComRequest(calComBody(trigger, { createdAt: new Date().toISOString() }, payload)),
      });
      expect(response.status).toBe(200);
    };
    const slot = (at: Date) => ({
      startTime: at.toISOString(),
      endTime: new Date(at.getTime() + 30 * 60_000).toISOString(),
    });
    const first = uid();
    await deliver("cal-com-booking-created", {
      uid: first,
      ...slot(start),
      metadata: { customer: createCustomerReference(booked.id) },
      attendees: [{ email: booked.email, name: booked.fullName }],
    });
    const booking = await db()
      .selectFrom("bookings")
      .select("id")
      .where("external_id", "=", first)
      .executeTakeFirstOrThrow();
    const made = await callRoute(bookingsAction, "/admin-dashboard/bookings", {
      cookie: adminCookie,
      form: { intent: "create-visit", bookingId: booking.id, serviceType: "Weekly Service" },
    });
    expect(await toastOf(made)).toMatchObject({ description: "Visit created from booking" });
    const visit = await db()
      .selectFrom("services")
      .selectAll()
      .where("booking_id", "=", booking.id)
      .executeTakeFirstOrThrow();
    // Pressed at the visit's own start: its business day whatever the hour.
    expect((await press(visit.id, visit.service_date)).kind).toBe("sent");

    const later = new Date(start.getTime() + 2 * 24 * 3600_000);
    await deliver("cal-com-booking-rescheduled", {
      uid: uid("new"),
      rescheduleUid: first,
      metadata: {},
      ...slot(later),
    });
    expect((await read(visit.id)).service_date.toISOString()).toBe(later.toISOString());
    await expectNewDaySendsItsOwn(visit.id, later, cookie);
  });

  test("the generator's closed-day move clears it; the new day sends its own", async () => {
    const { customer: planCustomer, visits } = await customerWithTuesdayPlan(db());
    const cookie = await sessionCookieFor(planCustomer.id);
    const tuesday = visits[0];
    expect(tuesday.day).toBe("2027-03-02");
    const hourBefore = new Date(tuesday.service_date.getTime() - 3600_000);
    expect((await press(tuesday.id, hourBefore)).kind).toBe("sent");

    // The owner closes that Tuesday after the technician set out; the next run moves the visit.
    const { planRules } = await getSiteSettings();
    const result = await generatePlanVisits({
      now: new Date(hourBefore.getTime() + 15 * 60_000),
      rules: {
        horizonDays: planRules.horizonDays,
        firstVisitTime: planRules.firstVisitTime,
        closedDays: [{ date: "2027-03-02", name: "Snow day" }],
      },
    });
    expect(result.moved).toBeGreaterThanOrEqual(1);
    const moved = await read(tuesday.id);
    expect(businessToday(moved.service_date)).toBe("2027-03-03");
    await expectNewDaySendsItsOwn(tuesday.id, new Date(moved.service_date.getTime() - 3600_000), cookie);
  });

  test("a plan change that moves the visit to another day clears it; the new day sends its own", async () => {
    const { admin: owner, customer: planCustomer, plan, visits } = await customerWithTuesdayPlan(db());
    const cookie = await sessionCookieFor(planCustomer.id);
    const tuesday = visits[0];
    const hourBefore = new Date(tuesday.service_date.getTime() - 3600_000);
    expect((await press(tuesday.id, hourBefore)).kind).toBe("sent");

    // The admin changes the dogs from today, with that Tuesday now closed: the plan's sync moves it.
    const { planRules } = await getSiteSettings();
    await changePlan(db(), {
      planId: plan.id,
      customerId: planCustomer.id,
      cataloguePlan: WEEKLY_PLAN,
      weekdays: [2],
      dogCount: 3,
      yardSize: "medium",
      fromDate: "2027-03-02",
      notes: null,
      actor: { id: owner.id, isAdmin: true },
      now: new Date(hourBefore.getTime() + 15 * 60_000),
      rules: { ...planRules, closedDays: [...planRules.closedDays, { date: "2027-03-02", name: "Snow day" }] },
    });
    const moved = await read(tuesday.id);
    expect(businessToday(moved.service_date)).toBe("2027-03-03");
    await expectNewDaySendsItsOwn(tuesday.id, new Date(moved.service_date.getTime() - 3600_000), cookie);
  });

  test("the trigger's time zone is the business's (its frozen copy in migration 0024)", async () => {
    const { rows } = await sql<{ source: string }>`
      select prosrc as source from pg_proc where proname = 'services_on_my_way_follows_day'`.execute(db());
    expect(rows).toHaveLength(1);
    expect(rows[0].source).toContain(`'${BUSINESS_TIME_ZONE}'`);
  });

  // Last: it migrates this file's database down and up again.
  test("the migration clears On my way of visits moved before it, and keeps the others", async () => {
    const moved = await visitAt(WEDNESDAY_10AM);
    const kept = await visitAt(TUESDAY_11AM);
    // As a move before the trigger left it: sent on Tuesday, the visit now on Wednesday.
    await db()
      .updateTable("services")
      .set({ on_my_way_at: TUESDAY_10AM })
      .where("id", "in", [moved.id, kept.id])
      .execute();
    const migrator = createMigrator(db());
    const names = Object.keys(migrations);
    const down = await migrator.migrateTo(names[names.indexOf("0024-on-my-way-belongs-to-its-day") - 1]);
    expect(down.error).toBeUndefined();
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect((await read(moved.id)).on_my_way_at).toBeNull();
    expect((await read(kept.id)).on_my_way_at?.toISOString()).toBe(TUESDAY_10AM.toISOString());
  });
});
