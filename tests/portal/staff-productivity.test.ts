import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute } from "../helpers/route-calls";
import { getRouteSettings } from "~/content/content.server";
import { summariseDay } from "~/features/staff/productivity";
import { businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { loader } from "~/routes/admin-dashboard.staff";

/**
 * Item 6 of issue 36 (decision 128) against hand-computed numbers. The bundled route settings:
 * 1.3 detour factor, 30 mph. Yards 2 and 5 miles north of the start: legs of 2.6 and 3.9 road
 * miles (5.2 and 7.8 minutes' drive), 6.5 miles planned.
 */
const database = useAppDatabase();
const db = () => database.current.db;

let owner: TestUser;
let tess: TestUser;
let idle: TestUser;
const minute = 60_000;
const dayStart = () => startOfBusinessDay(businessToday())!.getTime();
const at = (minutesIntoDay: number) => new Date(dayStart() + minutesIntoDay * minute);

beforeAll(async () => {
  owner = await createUser(db(), { role: "owner", fullName: "Oscar Owner" });
  tess = await createUser(db(), { role: "technician", fullName: "Tess Technician" });
  idle = await createUser(db(), { role: "technician", fullName: "Ivan Idle" });
  const { start } = await getRouteSettings();
  const north = (miles: number) => ({ latitude: start!.latitude + miles / 69.05, longitude: start!.longitude });
  const visit = async (
    location: { latitude: number; longitude: number } | null,
    values: Record<string, unknown>,
    assignedTo: string | null = tess.id,
  ) => {
    const customer = await createUser(db());
    await db()
      .insertInto("yard_profiles")
      .values({ user_id: customer.id, street: "1 Test St", city: "Pahrump", zip: "00000", ...location })
      .execute();
    await db()
      .insertInto("services")
      .values({
        customer_id: customer.id,
        service_type: "Weekly Service",
        service_date: at(9 * 60),
        assigned_to: assignedTo,
        ...values,
      } as never)
      .execute();
  };
  // 9:00 On my way, done 9:25.2: 25.2 - 5.2 drive = 20 minutes on site.
  await visit(north(2), { status: "completed", on_my_way_at: at(9 * 60), completed_at: at(9 * 60 + 25.2) });
  // 9:30 On my way, done 9:52.8: 22.8 - 7.8 drive = 15 minutes on site.
  await visit(north(5), { status: "completed", on_my_way_at: at(9 * 60 + 30), completed_at: at(9 * 60 + 52.8) });
  // Done without On my way: counted, not timed. No location: no leg, the miles stay 6.5.
  await visit(null, { status: "completed", completed_at: at(11 * 60) });
  await visit(null, { status: "missed", missed_reason: "locked_gate" });
  await visit(north(9), { status: "skipped", skip_reason: "customer" });
  // Somebody else's and nobody's visits count for nobody here.
  await visit(north(1), { status: "completed", completed_at: at(10 * 60) }, null);
});

describe("productivity per staff member per day", () => {
  it("stops done, minutes on site, miles planned and skips by reason, as computed by hand", async () => {
    const response = await callRoute(loader, "/admin-dashboard/staff", { cookie: await sessionCookieFor(owner.id) });
    expect(response.status).toBe(200);
    const { productivity } = await response.json();
    expect(productivity.day).toBe(businessToday());
    expect(productivity.problem).toBeNull();
    const tessRow = productivity.rows.find((row: { staffId: string }) => row.staffId === tess.id);
    expect(tessRow).toMatchObject({
      stopsDone: 3,
      timedStops: 2,
      minutesOnSite: 35,
      skips: [
        { label: "Missed: Locked gate", count: 1 },
        { label: "Skipped by customer", count: 1 },
      ],
    });
    expect(tessRow.milesPlanned).toBeCloseTo(6.5, 1);
    // An active technician with nothing that day still has a row, all zeros; the owner, with
    // no visits assigned, has none.
    expect(productivity.rows.find((row: { staffId: string }) => row.staffId === idle.id)).toMatchObject({
      stopsDone: 0,
      minutesOnSite: null,
      milesPlanned: 0,
      skips: [],
    });
    expect(productivity.rows.some((row: { staffId: string }) => row.staffId === owner.id)).toBe(false);
  });

  it("another day has nothing; a day that is not a date is reported and today shown, never a 500", async () => {
    const cookie = await sessionCookieFor(owner.id);
    const other = await (await callRoute(loader, "/admin-dashboard/staff?day=2020-01-06", { cookie })).json();
    expect(other.productivity.day).toBe("2020-01-06");
    expect(other.productivity.rows.find((row: { staffId: string }) => row.staffId === tess.id)).toMatchObject({
      stopsDone: 0,
      skips: [],
    });
    for (const bad of ["yesterday", "2026-02-30", "<script>"]) {
      const response = await callRoute(loader, `/admin-dashboard/staff?day=${encodeURIComponent(bad)}`, { cookie });
      expect(response.status).toBe(200);
      const page = await response.json();
      expect(page.productivity.day).toBe(businessToday());
      expect(page.productivity.problem).toContain("is not a date");
    }
  });
});

describe("summariseDay", () => {
  const base = { skipReason: null, missedReason: null, onMyWayAt: null, completedAt: null } as const;
  it("never counts negative time on site, nor a press after the completion", () => {
    const summary = summariseDay(
      [
        // 10 minutes from the press to done, 12 planned driving: 0, not -2.
        { ...base, id: "a", status: "completed", onMyWayAt: at(600), completedAt: at(610) },
        // On my way pressed after completion (a mistaken tap): not timed.
        { ...base, id: "b", status: "completed", onMyWayAt: at(700), completedAt: at(650) },
        { ...base, id: "c", status: "scheduled", onMyWayAt: at(720) },
      ],
      { miles: 12, legMinutes: new Map([["a", 12]]) },
    );
    expect(summary).toEqual({ stopsDone: 2, timedStops: 1, minutesOnSite: 0, milesPlanned: 12, skips: [] });
  });
});
