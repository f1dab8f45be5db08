import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { startWeeklyPlanAhead } from "../helpers/plan-seed";
import { createBookingRow, createVisitRow } from "../helpers/portal-data";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";
import { testServerUrl } from "../helpers/test-database";

/**
 * Issue 15: one session read and one user query per request, not one per nested loader. The
 * production server talks to PostgreSQL through a loopback proxy that reads the SQL it sends;
 * every portal and admin page, loaded as a browser loads it (the document), must send the
 * session's select and the user's select exactly once, whatever loaders its URL nests (root,
 * the admin layout, the page).
 */
const serverUrl = testServerUrl();
const SESSION_READ = 'select "data", "expires_at" from "sessions"';
const USER_READ = 'as "two_step_enabled_at"';

const database = useAppDatabase();
let proxy: TcpProxy;
let app: AppServer;
let sent = "";
let customerPages: string[] = [];
let adminPages: string[] = [];
let customerCookie = "";
let adminCookie = "";

describe.skipIf(!serverUrl)("one session read per request (PostgreSQL)", () => {
  beforeAll(async () => {
    const db = database.current.db;
    const customer = await createUser(db, { email: "one-read-customer@example.com" });
    const admin = await createUser(db, { email: "one-read-admin@example.com", admin: true });
    const visit = await createVisitRow(db, customer.id);
    await createBookingRow(db, customer.id);
    // Your Plan and the dashboard's plan card, with a plan to show.
    await startWeeklyPlanAhead(db, { customerId: customer.id, adminId: admin.id });
    const quote = await db
      .insertInto("quote_requests")
      .values({
        name: "Quote Person",
        phone: "7025550123",
        email: "quote@example.com",
        address: "1 Main St",
        zip: "89048",
        dogs: "2",
        yard_size: "medium",
        service: "weekly",
        outside_service_area: false,
        dedupe_key: "one-read",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    customerCookie = await sessionCookieFor(customer.id);
    adminCookie = await sessionCookieFor(admin.id);
    customerPages = [
      "/customer-dashboard",
      "/customer-dashboard/visits",
      `/customer-dashboard/visits/${visit.id}`,
      "/customer-dashboard/yard",
      "/customer-dashboard/plan",
      "/account/security",
    ];
    adminPages = [
      "/admin-dashboard",
      `/admin-dashboard?tab=upload&service=${visit.id}`,
      "/admin-dashboard/visits",
      "/admin-dashboard/visits/today",
      `/admin-dashboard/visits/${visit.id}`,
      "/admin-dashboard/bookings",
      "/admin-dashboard/customers",
      `/admin-dashboard/customers/${customer.id}`,
      "/admin-dashboard/quotes",
      `/admin-dashboard/quotes/${quote.id}`,
    ];

    proxy = await startTcpProxy(Number(new URL(serverUrl!).port || 5432));
    proxy.onChunkUp((chunk) => (sent += chunk.toString("latin1")));
    const url = new URL(serverUrl!);
    url.port = String(proxy.port);
    url.pathname = `/${database.current.name}`;
    // The test's own secret, so that the server accepts the sessions made here.
    app = await startAppServer(
      { DATABASE_URL: url.toString(), SESSION_SECRET: process.env.SESSION_SECRET ?? "", SEED_DEV_DATA: "false" },
      { ready: "healthy" },
    );
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await proxy?.close();
  });

  /** The page as a browser asks for it, and the session and user selects it caused. */
  async function load(pathname: string, cookie: string) {
    sent = "";
    const response = await fetch(`${app.url}${pathname}`, {
      headers: { Cookie: cookie, Accept: "text/html" },
      redirect: "manual",
    });
    const body = await response.text();
    const count = (needle: string) => sent.split(needle).length - 1;
    return { status: response.status, body, sessionReads: count(SESSION_READ), userReads: count(USER_READ) };
  }

  test("every customer page reads the session and the user once", async () => {
    for (const pathname of customerPages) {
      const page = await load(pathname, customerCookie);
      expect({ pathname, status: page.status }).toEqual({ pathname, status: 200 });
      expect({ pathname, sessionReads: page.sessionReads, userReads: page.userReads }).toEqual({
        pathname,
        sessionReads: 1,
        userReads: 1,
      });
    }
  });

  test("every admin page reads the session and the user once, through the admin layout's loader too", async () => {
    for (const pathname of adminPages) {
      const page = await load(pathname, adminCookie);
      expect({ pathname, status: page.status }).toEqual({ pathname, status: 200 });
      expect(page.body).not.toContain("Access Denied");
      expect({ pathname, sessionReads: page.sessionReads, userReads: page.userReads }).toEqual({
        pathname,
        sessionReads: 1,
        userReads: 1,
      });
    }
  });

  test("Today reads its stops, with when On my way was sent, in one query of services", async () => {
    const db = database.current.db;
    const customer = await createUser(db, { email: "one-read-today@example.com", fullName: "Tess Today" });
    const visit = await createVisitRow(db, customer.id, { daysFromNow: 0, status: "scheduled" });
    await db.updateTable("services").set({ on_my_way_at: new Date() }).where("id", "=", visit.id).execute();
    const page = await load("/admin-dashboard/visits/today", adminCookie);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/On my way sent at \d{1,2}:\d{2}/);
    // The day's visits, on_my_way_at among their columns; no second select of them by id.
    expect(sent.split('from "services"').length - 1).toBe(1);
    expect(sent).toContain('"on_my_way_at"');
  });

  test("the proxy sees the queries at all: a second request reads again (no cross-request reuse)", async () => {
    const first = await load("/customer-dashboard", customerCookie);
    const second = await load("/customer-dashboard", customerCookie);
    expect([first.sessionReads, second.sessionReads]).toEqual([1, 1]);
    // A customer on an admin page is refused, after one read as well.
    const refused = await load("/admin-dashboard/bookings", customerCookie);
    expect(refused.status).toBe(302);
    expect(refused.sessionReads).toBe(1);
  });
});
