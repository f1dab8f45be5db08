import { beforeAll, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { action as routesAction, loader as routesLoader } from "~/routes/admin-dashboard.routes";
import { action as settingsAction } from "~/routes/admin-dashboard.staff.$staffId";
import { loader as todayLoader } from "~/routes/admin-dashboard.visits.today";

/**
 * The routes page (docs/decisions/126) on a real database: the owner's route settings per staff
 * member, "Split the day", moving a stop, moving a customer, "Reassign"; refusals store nothing.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const NORTH = { latitude: 36.3, longitude: -115.2 };
const SOUTH = { latitude: 36.0, longitude: -115.1 };
let owner: TestUser;
let office: TestUser;
let north: TestUser;
let south: TestUser;
const customers: TestUser[] = [];
const day = businessToday();
const at = (hours: number, offset = 0) =>
  new Date(startOfBusinessDay(addDays(day, offset))!.getTime() + hours * 3_600_000);

async function post(cookieOf: TestUser, form: Record<string, string>, date = day) {
  return callRoute(routesAction as never, `/admin-dashboard/routes?date=${date}`, {
    cookie: await sessionCookieFor(cookieOf.id),
    form,
  });
}

async function saveSettings(who: TestUser, place: { latitude: number; longitude: number }, name: string) {
  const body = new URLSearchParams({
    worksRoute: "on",
    startName: name,
    startLatitude: String(place.latitude),
    startLongitude: String(place.longitude),
    dayStartsAt: "08:00",
    dayEndsAt: "16:00",
  });
  // Every weekday: the test runs on whatever day it is.
  for (const weekday of [0, 1, 2, 3, 4, 5, 6]) body.append("weekday", String(weekday));
  const response = await callRoute(settingsAction as never, `/admin-dashboard/staff/${who.id}`, {
    cookie: await sessionCookieFor(owner.id),
    params: { staffId: who.id },
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
  return response;
}

const assignments = async () =>
  Object.fromEntries(
    (await db().selectFrom("services").select(["id", "assigned_to", "assigned_by_hand"]).execute()).map((r) => [
      r.id,
      [r.assigned_to, r.assigned_by_hand],
    ]),
  );
const stableRows = async () =>
  (await db().selectFrom("customer_technicians").selectAll().orderBy("customer_id").execute()).map((r) => [
    r.customer_id,
    r.technician_id,
    r.placed_by,
  ]);

const visits: string[] = [];

beforeAll(async () => {
  owner = await createUser(db(), { role: "owner", fullName: "Oscar Owner" });
  office = await createUser(db(), { role: "office", fullName: "Olive Office" });
  north = await createUser(db(), { role: "technician", fullName: "Nora North" });
  south = await createUser(db(), { role: "technician", fullName: "Sam South" });
  for (let n = 0; n < 9; n++) {
    const customer = await createUser(db(), { fullName: `Customer ${n}` });
    customers.push(customer);
    const base = n < 4 ? NORTH : SOUTH;
    await db()
      .insertInto("yard_profiles")
      .values({
        user_id: customer.id,
        street: `${n} Test St`,
        city: "Las Vegas",
        zip: "89117",
        latitude: base.latitude + n * 0.003,
        longitude: base.longitude,
      })
      .execute();
    for (const offset of [0, 7]) {
      const visit = await db()
        .insertInto("services")
        .values({
          customer_id: customer.id,
          service_type: "Weekly Service",
          service_date: at(8, offset),
          // One of today's is skipped: it must not land on a route.
          status: n === 8 && offset === 0 ? "skipped" : "scheduled",
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (offset === 0) visits.push(visit.id);
    }
  }
});

describe("route settings per staff member", () => {
  test("bad input is refused with its errors and stores nothing", async () => {
    const response = await callRoute(settingsAction as never, `/admin-dashboard/staff/${north.id}`, {
      cookie: await sessionCookieFor(owner.id),
      params: { staffId: north.id },
      form: { worksRoute: "on", startName: "", startLatitude: "91", dayStartsAt: "9am", dayEndsAt: "08:00" },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: string[] };
    expect(body.errors.length).toBeGreaterThan(1);
    expect(await db().selectFrom("staff_routes").selectAll().execute()).toEqual([]);
  });

  test("the owner saves a start, hours and weekdays; no failure shows", async () => {
    for (const [who, place, name] of [
      [north, NORTH, "North yard"],
      [south, SOUTH, "South yard"],
    ] as const) {
      const response = await saveSettings(who, place, name);
      expect(response.status).toBe(302);
      expect(await toastOf(response)).toMatchObject({ type: "success", description: "Route settings saved" });
    }
    const rows = await db().selectFrom("staff_routes").selectAll().orderBy("start_name").execute();
    expect(rows.map((r) => [r.start_name, r.works_route, r.day_starts_at, r.day_ends_at, r.weekdays])).toEqual([
      ["North yard", true, 480, 960, 127],
      ["South yard", true, 480, 960, 127],
    ]);
  });

  test("office may not change route settings: refused, nothing stored", async () => {
    const before = await db().selectFrom("staff_routes").selectAll().execute();
    const response = await callRoute(settingsAction as never, `/admin-dashboard/staff/${north.id}`, {
      cookie: await sessionCookieFor(office.id),
      params: { staffId: north.id },
      form: { worksRoute: "", startName: "Moved", startLatitude: "1", startLongitude: "1" },
    });
    expect(response.status).toBe(302);
    expect((await toastOf(response))?.message).toBe("Access Denied");
    expect(await db().selectFrom("staff_routes").selectAll().execute()).toEqual(before);
  });
});

describe("the routes page", () => {
  test("a technician is refused the page and its actions; nothing stored", async () => {
    const before = [await assignments(), await stableRows()];
    const forms: Record<string, string>[] = [
      { intent: "split" },
      { intent: "move-stop", visitId: visits[0], to: north.id },
    ];
    for (const form of forms) {
      const response = await post(north, form);
      expect((await toastOf(response))?.message).toBe("Access Denied");
    }
    const page = await callRoute(routesLoader as never, `/admin-dashboard/routes`, {
      cookie: await sessionCookieFor(north.id),
    });
    expect((await toastOf(page))?.message).toBe("Access Denied");
    expect([await assignments(), await stableRows()]).toEqual(before);
  });

  test("Split the day: each customer to the route of their area, skipped visits on none", async () => {
    const response = await post(owner, { intent: "split" });
    expect(await toastOf(response)).toMatchObject({ type: "success" });
    const rows = await assignments();
    for (const [n, id] of visits.entries()) {
      if (n === 8) expect(rows[id]).toEqual([null, false]);
      else expect(rows[id]).toEqual([n < 4 ? north.id : south.id, false]);
    }
    expect((await stableRows()).length).toBe(8);
    const page = await callRoute(routesLoader as never, `/admin-dashboard/routes?date=${day}`, {
      cookie: await sessionCookieFor(office.id),
    });
    expect(page.status).toBe(200);
    const data = (await page.json()) as { routes: { label: string; stops: { id: string }[] }[]; offRoute: number };
    expect(data.routes.map((r) => [r.label, r.stops.length])).toEqual([
      ["Nora North", 4],
      ["Sam South", 4],
    ]);
    expect(data.offRoute).toBe(1);
  });

  test("splitting again changes nothing (stable)", async () => {
    const before = [await assignments(), await stableRows()];
    await post(owner, { intent: "split" });
    expect([await assignments(), await stableRows()]).toEqual(before);
  });

  test("moving a stop puts it with the other technician by hand; the split leaves it there", async () => {
    const response = await post(office, { intent: "move-stop", visitId: visits[0], to: south.id });
    expect(await toastOf(response)).toMatchObject({ type: "success", description: "Stop moved" });
    await post(owner, { intent: "split" });
    const rows = await assignments();
    expect(rows[visits[0]]).toEqual([south.id, true]);
    // Only that visit: the customer's next week and their technician stay.
    const stable = Object.fromEntries((await stableRows()).map(([c, t]) => [c, t]));
    expect(stable[customers[0].id]).toBe(north.id);
  });

  test("bad moves are refused with a message and store nothing", async () => {
    const before = [await assignments(), await stableRows()];
    const forms: Record<string, string>[] = [
      { intent: "move-stop", visitId: visits[1], to: customers[0].id },
      { intent: "move-stop", visitId: "not-a-visit", to: south.id },
      { intent: "move-customer", visitId: visits[1], to: "" },
      { intent: "reassign", from: north.id, to: north.id },
      { intent: "nonsense" },
    ];
    for (const form of forms) {
      const response = await post(owner, form);
      expect(response.status, JSON.stringify(form)).toBe(302);
      expect((await toastOf(response))?.type, JSON.stringify(form)).toBe("error");
    }
    const bad = await post(owner, { intent: "split" }, "2030-02-30");
    expect(bad.status).toBe(400);
    expect([await assignments(), await stableRows()]).toEqual(before);
  });

  test("moving a customer moves their coming visits and keeps them with the new technician", async () => {
    const response = await post(owner, { intent: "move-customer", visitId: visits[1], to: south.id });
    expect(await toastOf(response)).toMatchObject({ type: "success" });
    const coming = await db()
      .selectFrom("services")
      .select("assigned_to")
      .where("customer_id", "=", customers[1].id)
      .execute();
    expect(coming.map((r) => r.assigned_to)).toEqual([south.id, south.id]);
    const stable = await db()
      .selectFrom("customer_technicians")
      .selectAll()
      .where("customer_id", "=", customers[1].id)
      .executeTakeFirstOrThrow();
    expect([stable.technician_id, stable.placed_by]).toEqual([south.id, "owner"]);
  });

  test("Reassign: a leaving technician's customers all go to the other one", async () => {
    const response = await post(owner, { intent: "reassign", from: north.id, to: south.id });
    expect(await toastOf(response)).toMatchObject({ type: "success" });
    expect((await stableRows()).every(([, t]) => t === south.id)).toBe(true);
    const left = await db().selectFrom("services").select("id").where("assigned_to", "=", north.id).execute();
    expect(left).toEqual([]);
  });

  test("a technician's Today is their own route, from their own start", async () => {
    const response = await callRoute(todayLoader as never, "/admin-dashboard/visits/today", {
      cookie: await sessionCookieFor(south.id),
    });
    const page = (await response.json()) as { route: { startName: string; stops: number } | null };
    expect(page.route).toMatchObject({ startName: "South yard", stops: 8 });
    expect(locationOf(response)).toBeNull();
  });
});
