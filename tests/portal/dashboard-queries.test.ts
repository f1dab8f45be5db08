import { describe, expect, test } from "vitest";
import type { VisitStatus } from "../../db/schema";
import { useAppDatabase } from "../helpers/app-database";
import { createUser } from "../helpers/factories";
import { startOfBusinessToday } from "~/features/visits/visit-dates";
import { listUpcomingBookingsForCustomer } from "~/models/booking.server";
import { listRecentMediaForCustomer } from "~/models/visit-media.server";
import { listRecentCompletedVisitsForCustomer } from "~/models/visit.server";

/**
 * The customer dashboard's three lists (decision 047), with a fixed clock: completed visits only,
 * newest first; their photos only; bookings from the start of today (Las Vegas) on, soonest first.
 */
const database = useAppDatabase();
const db = () => database.current.db;

// Monday 10 March 2025, 11:00 in Las Vegas (PDT, UTC-7: daylight time began the day before).
const NOW = new Date("2025-03-10T18:00:00Z");
const TODAY = new Date("2025-03-10T07:00:00Z");
const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
const at = (offset: number) => new Date(NOW.getTime() + offset);

async function visit(customerId: string, status: VisitStatus, offset: number) {
  return db()
    .insertInto("services")
    .values({ customer_id: customerId, service_type: "Weekly Service", service_date: at(offset), status })
    .returning(["id", "status", "service_date"])
    .executeTakeFirstOrThrow();
}

async function photo(visitId: string, uploadedBy: string, minutesAgo: number) {
  return (
    await db()
      .insertInto("service_images")
      .values({
        service_id: visitId,
        image_url: `${visitId}/after_${minutesAgo}.png`,
        image_type: "after",
        content_type: "image/png",
        size_bytes: 100,
        uploaded_by: uploadedBy,
        created_at: new Date(Date.now() - minutesAgo * 60_000),
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function booking(customerId: string, bookingDate: Date, status: "pending" | "confirmed" | "cancelled") {
  return db()
    .insertInto("bookings")
    .values({ customer_id: customerId, service_type: "Trash Bin Clean", booking_date: bookingDate, status })
    .returning(["id", "booking_date"])
    .executeTakeFirstOrThrow();
}

describe("the start of today in the business's time zone", () => {
  test("is midnight in Las Vegas, on either side of the change to daylight time", () => {
    expect(startOfBusinessToday(NOW).toISOString()).toBe(TODAY.toISOString());
    // 23:30 on Sunday in Las Vegas (06:30 UTC on Monday): still Sunday, which began in standard time.
    expect(startOfBusinessToday(new Date("2025-03-10T06:30:00Z")).toISOString()).toBe("2025-03-09T08:00:00.000Z");
  });
});

describe("Recent Services and their photos", () => {
  test("completed visits only, newest first, five; a future scheduled visit is not listed", async () => {
    const customer = await createUser(db());
    const admin = await createUser(db(), { admin: true });
    const completed = [];
    for (const days of [-10, -3, -1, -20, -30, -40]) completed.push(await visit(customer.id, "completed", days * DAY));
    const future = await visit(customer.id, "scheduled", 2 * DAY);
    const farFuture = await visit(customer.id, "scheduled", 28 * DAY);
    const overdue = await visit(customer.id, "scheduled", -2 * HOUR);
    const others = [
      await visit(customer.id, "missed", -2 * DAY),
      await visit(customer.id, "skipped", -4 * DAY),
      await visit(customer.id, "cancelled", -5 * DAY),
    ];
    const stranger = await createUser(db());
    const strangers = await visit(stranger.id, "completed", -1 * HOUR);

    const listed = await listRecentCompletedVisitsForCustomer(customer.id, 5);
    const newestFirst = [...completed].sort((a, b) => +b.service_date - +a.service_date).slice(0, 5);
    expect(listed.map((v) => v.id)).toEqual(newestFirst.map((v) => v.id));
    expect(listed.every((v) => v.status === "completed")).toBe(true);
    const notListed = [future, farFuture, overdue, ...others, strangers].map((v) => v.id);
    for (const id of notListed) expect(listed.map((v) => v.id)).not.toContain(id);

    // Photos come from those visits only: not from the scheduled, missed or sixth-newest one.
    const oldest = completed[5]; // -40 days: the sixth, not listed
    const shown = [
      await photo(completed[2].id, admin.id, 50), // -1 day
      await photo(completed[1].id, admin.id, 40), // -3 days
      await photo(completed[0].id, admin.id, 30), // -10 days
    ];
    const hidden = [
      await photo(future.id, admin.id, 1),
      await photo(overdue.id, admin.id, 2),
      await photo(others[0].id, admin.id, 3),
      await photo(oldest.id, admin.id, 4),
      await photo(strangers.id, admin.id, 5),
    ];
    const media = await listRecentMediaForCustomer(customer.id, 5, 4);
    // Newest upload first.
    expect(media.map((m) => m.id)).toEqual([...shown].reverse());
    for (const id of hidden) expect(media.map((m) => m.id)).not.toContain(id);
  });

  test("a customer with only scheduled visits has none to show", async () => {
    const customer = await createUser(db());
    await visit(customer.id, "scheduled", DAY);
    await visit(customer.id, "scheduled", 7 * DAY);
    expect(await listRecentCompletedVisitsForCustomer(customer.id, 5)).toEqual([]);
    expect(await listRecentMediaForCustomer(customer.id, 5, 4)).toEqual([]);
  });
});

describe("Upcoming Bookings", () => {
  test("from the start of today (Las Vegas) on, soonest first, five; a past booking is not listed", async () => {
    const customer = await createUser(db());
    const yesterdayLate = await booking(customer.id, new Date(TODAY.getTime() - 30 * 60_000), "confirmed");
    const lastMonth = await booking(customer.id, at(-30 * DAY), "confirmed");
    const earlyToday = await booking(customer.id, new Date(TODAY.getTime() + 30 * 60_000), "confirmed");
    const ahead = [];
    for (const days of [9, 1, 30, 3, 2]) ahead.push(await booking(customer.id, at(days * DAY), "pending"));
    const cancelled = await booking(customer.id, at(4 * DAY), "cancelled");
    const stranger = await createUser(db());
    const strangers = await booking(stranger.id, at(DAY), "confirmed");

    const listed = await listUpcomingBookingsForCustomer(customer.id, startOfBusinessToday(NOW));
    // 00:30 today (already past at 11:00, still today), then +1, +2, +3 days, then the cancelled one (+4).
    const byDate = [earlyToday, ...ahead, cancelled].sort((a, b) => +a.booking_date - +b.booking_date);
    expect(listed.map((b) => b.id)).toEqual(byDate.slice(0, 5).map((b) => b.id));
    expect(listed.map((b) => b.id)).toEqual([earlyToday.id, ahead[1].id, ahead[4].id, ahead[3].id, cancelled.id]);
    for (const id of [yesterdayLate.id, lastMonth.id, strangers.id]) expect(listed.map((b) => b.id)).not.toContain(id);
  });

  test("only past bookings: none upcoming", async () => {
    const customer = await createUser(db());
    await booking(customer.id, at(-DAY), "confirmed");
    await booking(customer.id, new Date(TODAY.getTime() - 1), "pending");
    expect(await listUpcomingBookingsForCustomer(customer.id, startOfBusinessToday(NOW))).toEqual([]);
  });
});
