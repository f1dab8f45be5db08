/// <reference types="vite/client" />
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { makePng } from "../helpers/media-bytes";
import { storeVisitMedia } from "~/features/media/visit-media.server";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { createFolderStorage, setStorageForTests } from "~/utils/storage.server";

/**
 * Issue 36, "Done when": every role against every loader and action of every route module
 * (decision 123). The modules are read from app/routes, so a new route without a rule here
 * fails the first test. Each role is anonymous, a customer, or one of the three staff roles;
 * for each module's loader and action the rule says who may, and the test checks that everyone
 * else is refused (sent to sign in, to their dashboard, or to their staff home with "Access
 * Denied", or 403 / 404 where the route answers so) and that a refused action stored nothing.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const WHO = ["anonymous", "customer", "technician", "office", "owner"] as const;
type Who = (typeof WHO)[number];
const STAFF: Who[] = ["technician", "office", "owner"];
const OFFICE_AND_OWNER: Who[] = ["office", "owner"];

/**
 * Who may, per kind of rule. Written out here (not read from app/features/staff/capabilities.ts)
 * so that a change to the app's table has to be made on purpose in both places.
 */
const MAY: Record<Access, Who[] | "anyone"> = {
  // Public pages, sign-in pages and webhooks (which check their own signatures): no role rule,
  // only "never a 500" is checked.
  public: "anyone",
  "signed-in": ["customer", ...STAFF],
  "staff-area": STAFF,
  // The assigned visit of the technician (today); another visit is refused, tested below.
  "own-visit": STAFF,
  field: STAFF,
  visits: OFFICE_AND_OWNER,
  customers: OFFICE_AND_OWNER,
  bookings: OFFICE_AND_OWNER,
  quotes: OFFICE_AND_OWNER,
  billing: OFFICE_AND_OWNER,
  staff: ["owner"],
  // Decision 130: money reports the owner's only; customers and visits the office's too.
  reports: ["owner"],
  "operations-reports": OFFICE_AND_OWNER,
  "method-not-allowed": [],
};

type Access =
  | "public"
  | "signed-in"
  | "staff-area"
  | "own-visit"
  | "field"
  | "visits"
  | "customers"
  | "bookings"
  | "quotes"
  | "billing"
  | "staff"
  | "reports"
  | "operations-reports"
  // Answers 405 to everyone (after the role check, if any).
  | "method-not-allowed";

type Rule = {
  loader?: Access;
  action?: Access;
  /** The URL's path, with the seeded ids (default: from the file name). */
  url?: (ids: Ids) => string;
  params?: (ids: Ids) => Record<string, string>;
  /** A form that would store something if the action let the role through. */
  form?: (ids: Ids) => Record<string, string>;
  /** The route refuses with a 404 (the media route: ids cannot be probed). */
  refusesWith404?: boolean;
};

type Ids = {
  customer: string;
  assignedVisit: string;
  otherVisit: string;
  farVisit: string;
  assignedMedia: string;
  otherMedia: string;
  quote: string;
  booking: string;
  technician: string;
};

const NO_SUCH = "00000000-0000-4000-8000-000000000000";

const RULES: Record<string, Rule> = {
  "$.tsx": { loader: "public", action: "public", url: () => "/no-such-page" },
  "_index.tsx": { loader: "public", url: () => "/" },
  "about.tsx": { loader: "public" },
  "accessibility.tsx": { loader: "public" },
  "account.security.tsx": { loader: "signed-in", action: "signed-in", form: () => ({ intent: "setup" }) },
  // The loader only sends GETs back to the security page; the action is the signed-in user's.
  "account.verify-email.tsx": { loader: "public", action: "signed-in" },
  "admin-dashboard._index.tsx": {
    loader: "visits",
    action: "visits",
    url: () => "/admin-dashboard",
    form: (ids) => ({ customerId: ids.customer, serviceType: "Desert Dash", serviceDate: "2030-01-07T09:00" }),
  },
  "admin-dashboard.billing.$invoiceId.tsx": {
    loader: "billing",
    action: "billing",
    params: () => ({ invoiceId: NO_SUCH }),
    form: () => ({ intent: "void" }),
  },
  "admin-dashboard.billing._index.tsx": { loader: "billing", url: () => "/admin-dashboard/billing" },
  "admin-dashboard.billing.credit-notes.$creditNoteId.tsx": {
    loader: "billing",
    params: () => ({ creditNoteId: NO_SUCH }),
  },
  "admin-dashboard.billing.credit-notes.$creditNoteId_.pdf.ts": {
    loader: "billing",
    params: () => ({ creditNoteId: NO_SUCH }),
  },
  "admin-dashboard.billing.ledger[.csv].ts": { loader: "billing", url: () => "/admin-dashboard/billing/ledger.csv" },
  "admin-dashboard.bookings.tsx": {
    loader: "bookings",
    action: "bookings",
    form: (ids) => ({ intent: "confirm", bookingId: ids.booking }),
  },
  "admin-dashboard.customers.$customerId.tsx": {
    loader: "customers",
    action: "customers",
    params: (ids) => ({ customerId: ids.customer }),
    form: () => ({ intent: "yard", street: "1 Changed St", city: "Henderson", zip: "89052", gateCode: "9999" }),
  },
  "admin-dashboard.customers._index.tsx": { loader: "customers", url: () => "/admin-dashboard/customers" },
  "admin-dashboard.quotes.$quoteId.tsx": {
    loader: "quotes",
    action: "quotes",
    params: (ids) => ({ quoteId: ids.quote }),
    form: () => ({ status: "contacted" }),
  },
  "admin-dashboard.quotes.tsx": { loader: "quotes" },
  "admin-dashboard.waitlist.tsx": { loader: "customers", url: () => "/admin-dashboard/waitlist" },
  "admin-dashboard.reports._index.tsx": { loader: "operations-reports", url: () => "/admin-dashboard/reports" },
  "admin-dashboard.reports.csv.$table.ts": { loader: "reports", params: () => ({ table: "money" }) },
  "admin-dashboard.reports.money.tsx": { loader: "reports" },
  "admin-dashboard.staff.tsx": {
    loader: "staff",
    action: "staff",
    form: () => ({ intent: "invite", email: "new.hire@example.com", fullName: "New Hire", role: "owner" }),
  },
  "admin-dashboard.staff.$staffId.tsx": {
    loader: "staff",
    action: "staff",
    params: (ids) => ({ staffId: ids.technician }),
    form: () => ({
      worksRoute: "on",
      startName: "Yard",
      startLatitude: "36.1",
      startLongitude: "-115.1",
      dayStartsAt: "08:00",
      dayEndsAt: "17:00",
      weekday: "1",
    }),
  },
  "admin-dashboard.routes.tsx": {
    loader: "visits",
    action: "visits",
    // Moves to someone who works no route: the allowed get an error, so the other tests' visits
    // stay as seeded (tests/route/routes-page.test.ts moves stops for real).
    form: (ids) => ({ intent: "move-stop", visitId: ids.otherVisit, to: ids.customer }),
  },
  "admin-dashboard.tsx": { loader: "staff-area", url: () => "/admin-dashboard" },
  "admin-dashboard.visits.$visitId.on-my-way.ts": {
    loader: "method-not-allowed",
    action: "own-visit",
    params: (ids) => ({ visitId: ids.assignedVisit }),
  },
  "admin-dashboard.visits.$visitId.tsx": {
    loader: "own-visit",
    action: "own-visit",
    params: (ids) => ({ visitId: ids.assignedVisit }),
    form: () => ({ intent: "notes", notes: "written by whoever got through" }),
  },
  "admin-dashboard.visits._index.tsx": { loader: "visits", url: () => "/admin-dashboard/visits" },
  "admin-dashboard.visits.mine.tsx": { loader: "field", url: () => "/admin-dashboard/visits/mine" },
  "admin-dashboard.visits.today.tsx": {
    loader: "field",
    action: "visits",
    form: () => ({ intent: "optimise" }),
  },
  "auth.tsx": { loader: "public", action: "public" },
  "auth_.$provider.tsx": { loader: "public", action: "public", params: () => ({ provider: "google" }) },
  "auth_.$provider_.callback.tsx": { loader: "public", params: () => ({ provider: "google" }) },
  "auth_.forgot-password.tsx": { loader: "public", action: "public" },
  "auth_.reset-password.tsx": { loader: "public", action: "public" },
  "auth_.set-password.tsx": { loader: "public", action: "public" },
  "auth_.verify-email.tsx": { loader: "public", action: "public" },
  "auth_.verify.tsx": { loader: "public", action: "public" },
  "contact.tsx": { loader: "public", action: "public" },
  "start.tsx": { loader: "public", action: "public" },
  "customer-dashboard.tsx": { loader: "signed-in", action: "signed-in" },
  "customer-dashboard_.billing.$invoiceId.tsx": {
    loader: "signed-in",
    action: "signed-in",
    params: () => ({ invoiceId: NO_SUCH }),
  },
  "customer-dashboard_.billing.$invoiceId_.pdf.ts": { loader: "signed-in", params: () => ({ invoiceId: NO_SUCH }) },
  "customer-dashboard_.billing._index.tsx": { loader: "signed-in", action: "signed-in" },
  "customer-dashboard_.billing.credit-notes.$creditNoteId.tsx": {
    loader: "signed-in",
    params: () => ({ creditNoteId: NO_SUCH }),
  },
  "customer-dashboard_.billing.credit-notes.$creditNoteId_.pdf.ts": {
    loader: "signed-in",
    params: () => ({ creditNoteId: NO_SUCH }),
  },
  "customer-dashboard_.feedback.tsx": { loader: "signed-in", action: "signed-in" },
  "customer-dashboard_.plan.tsx": { loader: "signed-in", action: "signed-in" },
  "customer-dashboard_.visits.$visitId.tsx": { loader: "signed-in", params: () => ({ visitId: NO_SUCH }) },
  "customer-dashboard_.visits.$visitId_.tip.tsx": {
    loader: "signed-in",
    action: "signed-in",
    params: () => ({ visitId: NO_SUCH }),
  },
  "customer-dashboard_.visits._index.tsx": { loader: "signed-in" },
  "customer-dashboard_.yard.tsx": { loader: "signed-in", action: "signed-in" },
  "disclaimer.tsx": { loader: "public" },
  "gallery.tsx": { loader: "public" },
  "logout.tsx": { loader: "public", action: "public" },
  "privacy-policy.tsx": { loader: "public" },
  "resources.customer-search.ts": { loader: "customers", url: () => "/resources/customer-search?q=a" },
  "resources.healthcheck.ts": { loader: "public" },
  "resources.image-cdn.$.ts": { loader: "public", params: () => ({ "*": "nothing.jpg" }) },
  "resources.media-upload.ts": {
    loader: "method-not-allowed",
    action: "own-visit",
    url: (ids) => `/resources/media-upload?service=${ids.assignedVisit}`,
  },
  "resources.offline-change.ts": {
    loader: "method-not-allowed",
    action: "own-visit",
    url: (ids) => `/resources/offline-change?service=${ids.assignedVisit}`,
  },
  "resources.media.$imageId.ts": {
    loader: "own-visit",
    params: (ids) => ({ imageId: ids.assignedMedia }),
    refusesWith404: true,
  },
  "resources.preview.disable.ts": { loader: "public" },
  "resources.preview.ts": { loader: "public" },
  "resources.sanity-webhook.ts": { loader: "public", action: "public" },
  "resources.staff-app[.]webmanifest.ts": { loader: "public", url: () => "/resources/staff-app.webmanifest" },
  "resources.webhooks.cal-com.ts": { loader: "public", action: "public" },
  "resources.webhooks.calendly.ts": { loader: "public", action: "public" },
  "resources.webhooks.stripe.ts": { loader: "public", action: "public" },
  "resources.webhooks.twilio.ts": { loader: "public", action: "public" },
  "robots[.]txt.ts": { loader: "public", url: () => "/robots.txt" },
  "services.$slug.tsx": { loader: "public", params: () => ({ slug: "no-such-service" }) },
  "services._index.tsx": { loader: "public", url: () => "/services" },
  "sitemap[.]xml.ts": { loader: "public", url: () => "/sitemap.xml" },
  "terms-of-service.tsx": { loader: "public" },
  "test-only.error.tsx": { loader: "public" },
};

const ROUTES_DIR = path.resolve(__dirname, "../../app/routes");
const routeFiles = readdirSync(ROUTES_DIR).filter((name) => /\.(ts|tsx)$/.test(name) && !/\.test\./.test(name));
const modules = import.meta.glob<{ loader?: unknown; action?: unknown }>("../../app/routes/*.{ts,tsx}");

/** The URL Remix would serve the module at, with `$param`s filled from `params`. */
function urlOf(file: string, params: Record<string, string>) {
  const segments = file
    .replace(/\.(ts|tsx)$/, "")
    .split(".")
    .filter((s) => s !== "_index")
    .map((s) => s.replace(/_$/, "").replace(/^\$(.+)$/, (_, name: string) => params[name] ?? NO_SUCH));
  return `/${segments.join("/")}`.replace(/\/+/g, "/");
}

let users: Record<Exclude<Who, "anonymous">, TestUser>;
let ids: Ids;

async function cookieOf(who: Who) {
  // A fresh session per call: an allowed action (sign out, say) may end the one it came with.
  return who === "anonymous" ? undefined : sessionCookieFor(users[who].id);
}

/** A digest of every row of every table but the session's own bookkeeping. */
async function fingerprint() {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not in ('sessions', 'rate_limits', 'sign_in_challenges', 'kysely_migration', 'kysely_migration_lock')
    order by table_name`.execute(db());
  const digest: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ h: string | null }>`
      select md5(coalesce(string_agg(md5(t::text), '' order by md5(t::text)), '')) as h
      from ${sql.table(name)} t`.execute(db());
    digest[name] = rows[0]?.h ?? "";
  }
  return digest;
}

async function refusalOf(response: Response, who: Who, rule: Rule): Promise<string | null> {
  const location = locationOf(response);
  if (response.status === 302 && location && /^\/auth(\?|$)/.test(location)) return "sign-in";
  if (response.status === 302 && location) {
    const toast = await toastOf(response);
    if (toast?.message === "Access Denied") return `denied → ${location}`;
  }
  // A script's fetch (the offline queue) is told to sign in with 401, not a redirect.
  if (response.status === 401) return "sign-in";
  if (response.status === 403) return "403";
  if (rule.refusesWith404 && response.status === 404) return "404";
  if (response.status === 405 && who !== "anonymous") return null;
  return null;
}

let uploads: string;
afterAll(() => {
  setStorageForTests(undefined);
  rmSync(uploads, { recursive: true, force: true });
});

beforeAll(async () => {
  uploads = mkdtempSync(path.join(os.tmpdir(), "role-matrix-"));
  setStorageForTests(createFolderStorage(uploads));
  users = {
    customer: await createUser(db(), { fullName: "Casey Customer" }),
    technician: await createUser(db(), { role: "technician", fullName: "Tess Technician" }),
    office: await createUser(db(), { role: "office", fullName: "Olive Office" }),
    owner: await createUser(db(), { role: "owner", fullName: "Oscar Owner" }),
  };
  const other = await createUser(db(), { fullName: "Other Customer" });
  const today = startOfBusinessDay(businessToday())!;
  const at = (day: Date, hours: number) => new Date(day.getTime() + hours * 3_600_000);
  const visit = async (customerId: string, date: Date, assignedTo: string | null) =>
    (
      await db()
        .insertInto("services")
        .values({
          customer_id: customerId,
          service_type: "Weekly Service",
          service_date: date,
          assigned_to: assignedTo,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  const media = async (visitId: string) => {
    const visit = await db().selectFrom("services").selectAll().where("id", "=", visitId).executeTakeFirstOrThrow();
    const stored = await storeVisitMedia({
      visit,
      imageType: "before",
      source: (async function* () {
        yield makePng(8, 8);
      })(),
      uploadedBy: users.owner.id,
    });
    if (!stored.ok) throw new Error(`seed upload failed: ${stored.reason}`);
    return stored.image.id;
  };
  // Another customer's visits: the matrix's customer may see only their own media (none).
  const assignedVisit = await visit(other.id, at(today, 1), users.technician.id);
  const otherVisit = await visit(other.id, at(today, 2), null);
  const farVisit = await visit(other.id, at(startOfBusinessDay(addDays(businessToday(), 9))!, 1), users.technician.id);
  await db().insertInto("yard_profiles").values({ user_id: users.customer.id, gate_code: "1234" }).execute();
  const quote = await db()
    .insertInto("quote_requests")
    .values({
      name: "Quinn Quote",
      phone: "7025550100",
      email: "quinn@example.com",
      address: "1 Test St",
      zip: "89048",
      dogs: 1,
      yard_size: "small",
      service: "weekly",
      message: null,
      client_key: "role-matrix",
      dedupe_key: "role-matrix",
    } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  const booking = await db()
    .insertInto("bookings")
    .values({
      customer_id: users.customer.id,
      service_type: "Weekly Service",
      booking_date: at(today, 30),
      status: "pending",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  ids = {
    customer: users.customer.id,
    assignedVisit,
    otherVisit,
    farVisit,
    assignedMedia: await media(assignedVisit),
    otherMedia: await media(otherVisit),
    quote: quote.id,
    booking: booking.id,
    technician: users.technician.id,
  };
});

test("every route module in app/routes has a rule, and every rule a module", async () => {
  expect(routeFiles.length).toBeGreaterThan(40);
  expect([...routeFiles].sort()).toEqual(Object.keys(RULES).sort());
  for (const file of routeFiles) {
    const mod = await modules[`../../app/routes/${file}`]!();
    const rule = RULES[file]!;
    expect({ file, loader: typeof mod.loader === "function", action: typeof mod.action === "function" }).toEqual({
      file,
      loader: rule.loader !== undefined,
      action: rule.action !== undefined,
    });
  }
});

const cases = Object.entries(RULES).flatMap(([file, rule]) =>
  (["loader", "action"] as const).flatMap((kind) => (rule[kind] ? [{ file, kind, access: rule[kind]! }] : [])),
);

describe.each(cases)("$file $kind ($access)", ({ file, kind, access }) => {
  test.each(WHO)("%s", async (who) => {
    const rule = RULES[file]!;
    const mod = await modules[`../../app/routes/${file}`]!();
    const handler = mod[kind] as Parameters<typeof callRoute>[0];
    const params = rule.params?.(ids) ?? {};
    const url = rule.url?.(ids) ?? urlOf(file, params);
    const before = kind === "action" ? await fingerprint() : null;
    const response = await callRoute(handler, url, {
      cookie: await cookieOf(who),
      params,
      ...(kind === "action" ? { form: rule.form?.(ids) ?? { intent: "nothing-in-particular" } } : {}),
    });
    expect(response.status, `${who} ${kind} ${url}`).toBeLessThan(500);
    const may = MAY[access];
    if (may === "anyone") return;
    const refusal = await refusalOf(response, who, rule);
    if (access === "method-not-allowed") {
      // Everyone is refused: the anonymous and customers by the role check, staff with 405.
      expect(refusal !== null || response.status === 405, `${who}: ${response.status}`).toBe(true);
    } else if (may.includes(who)) {
      expect(refusal, `${who} should be let through ${url}`).toBeNull();
    } else {
      expect(refusal, `${who} should be refused ${url} (got ${response.status})`).not.toBeNull();
      if (who === "anonymous") expect(refusal).toBe(rule.refusesWith404 ? "404" : "sign-in");
    }
    if (before && (refusal !== null || access === "method-not-allowed")) {
      expect(await fingerprint(), `${who}'s refused ${kind} stored something`).toEqual(before);
    }
  });
});

describe("a technician reaches only the visits assigned to them, today and the next 7 days", () => {
  test.each([
    ["another technician's or nobody's visit of today", "otherVisit"],
    ["a visit of theirs 9 days ahead", "farVisit"],
  ] as const)("%s: its page, its post, On my way and uploads are refused, nothing stored", async (_, which) => {
    const visitId = ids[which];
    const calls: { file: string; kind: "loader" | "action"; form?: Record<string, string> }[] = [
      { file: "admin-dashboard.visits.$visitId.tsx", kind: "loader" as const },
      { file: "admin-dashboard.visits.$visitId.tsx", kind: "action" as const, form: { intent: "complete" } },
      { file: "admin-dashboard.visits.$visitId.on-my-way.ts", kind: "action" as const, form: {} },
    ];
    for (const call of calls) {
      const mod = await modules[`../../app/routes/${call.file}`]!();
      const before = await fingerprint();
      const response = await callRoute(
        mod[call.kind] as Parameters<typeof callRoute>[0],
        `/admin-dashboard/visits/${visitId}`,
        { cookie: await cookieOf("technician"), params: { visitId }, ...(call.form ? { form: call.form } : {}) },
      );
      expect(await refusalOf(response, "technician", {}), `${call.file} ${call.kind}`).toBe(
        "denied → /admin-dashboard/visits/today",
      );
      expect(await fingerprint()).toEqual(before);
    }
    const upload = await modules["../../app/routes/resources.media-upload.ts"]!();
    const response = await callRoute(
      upload.action as Parameters<typeof callRoute>[0],
      `/resources/media-upload?service=${visitId}`,
      { cookie: await cookieOf("technician"), form: {} },
    );
    expect(await refusalOf(response, "technician", {})).toBe("denied → /admin-dashboard/visits/today");
    // A change queued offline and replayed (decision 127): checked with the session, refused alike.
    const offline = await modules["../../app/routes/resources.offline-change.ts"]!();
    const before = await fingerprint();
    const query = new URLSearchParams({
      service: visitId,
      intent: "complete",
      key: "6f1c2f4e-0d7a-4b8e-9a51-3c2d1e0f9b7a",
      seen: new Date().toISOString(),
    });
    const replay = await callRoute(
      offline.action as Parameters<typeof callRoute>[0],
      `/resources/offline-change?${query}`,
      {
        cookie: await cookieOf("technician"),
        form: {},
      },
    );
    expect(replay.status).toBe(403);
    expect(await fingerprint()).toEqual(before);
  });

  test("media of a visit not theirs is a 404, as a missing id", async () => {
    const media = await modules["../../app/routes/resources.media.$imageId.ts"]!();
    const response = await callRoute(media.loader as Parameters<typeof callRoute>[0], `/resources/media/x`, {
      cookie: await cookieOf("technician"),
      params: { imageId: ids.otherMedia },
    });
    expect(response.status).toBe(404);
  });

  test("the visit page's calendar and assignment forms are the office's: 403, nothing stored", async () => {
    const mod = await modules["../../app/routes/admin-dashboard.visits.$visitId.tsx"]!();
    const forms: Record<string, string>[] = [
      { intent: "skip" },
      { intent: "cancel" },
      { intent: "reschedule", serviceDate: "2030-01-07T09:00" },
      { intent: "assign", assignedTo: users.office.id },
    ];
    for (const form of forms) {
      const before = await fingerprint();
      const response = await callRoute(mod.action as Parameters<typeof callRoute>[0], "/admin-dashboard/visits/x", {
        cookie: await cookieOf("technician"),
        params: { visitId: ids.assignedVisit },
        form,
      });
      expect(response.status, form.intent).toBe(403);
      expect(await fingerprint()).toEqual(before);
    }
  });

  test("Today lists only their visits; the office's Today lists every visit of the day", async () => {
    const today = await modules["../../app/routes/admin-dashboard.visits.today.tsx"]!();
    const load = async (who: Who) => {
      const response = await callRoute(
        today.loader as Parameters<typeof callRoute>[0],
        "/admin-dashboard/visits/today",
        {
          cookie: await cookieOf(who),
        },
      );
      expect(response.status).toBe(200);
      return JSON.stringify(await response.json());
    };
    const technician = await load("technician");
    expect(technician).toContain(ids.assignedVisit);
    expect(technician).not.toContain(ids.otherVisit);
    const office = await load("office");
    expect(office).toContain(ids.assignedVisit);
    expect(office).toContain(ids.otherVisit);
  });
});

describe("assigning a visit", () => {
  test("the office assigns to active staff only; a customer or a made-up id is refused", async () => {
    const mod = await modules["../../app/routes/admin-dashboard.visits.$visitId.tsx"]!();
    const post = async (assignedTo: string) =>
      callRoute(mod.action as Parameters<typeof callRoute>[0], `/admin-dashboard/visits/${ids.otherVisit}`, {
        cookie: await cookieOf("office"),
        params: { visitId: ids.otherVisit },
        form: { intent: "assign", assignedTo },
      });
    const assignedTo = async () =>
      (
        await db()
          .selectFrom("services")
          .select("assigned_to")
          .where("id", "=", ids.otherVisit)
          .executeTakeFirstOrThrow()
      ).assigned_to;
    for (const bad of [users.customer.id, NO_SUCH, "not-a-uuid"]) {
      expect((await post(bad)).status).toBe(400);
      expect(await assignedTo()).toBeNull();
    }
    const response = await post(users.technician.id);
    expect(response.status).toBe(302);
    expect(await toastOf(response)).toMatchObject({ type: "success", description: "Visit assigned" });
    expect(await assignedTo()).toBe(users.technician.id);
    // Unassigned again: the other tests' "nobody's visit" stays so.
    await post("");
    expect(await assignedTo()).toBeNull();
  });
});
