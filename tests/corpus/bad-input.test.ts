import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { startInProcessServer, type InProcessServer } from "../helpers/in-process-server";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { startWeeklyPlanAhead } from "../helpers/plan-seed";
import { createVisitRow } from "../helpers/portal-data";
import { createOpenInvoice } from "../helpers/stripe-billing";
import { goodQuote } from "../helpers/quote-form";

/**
 * The bad-input corpus: property-based requests (fast-check) against every route and action
 * of the production build, through the same middleware as server.js, on a real socket: forms,
 * multipart, webhooks, query strings, ids, headers, methods, cookies. On PGlite, and on
 * PostgreSQL when DATABASE_URL is set. Properties: no 5xx, no stack trace in a body, and no
 * row written by a refused (4xx) request.
 */
const RUNS = Number(process.env.CORPUS_RUNS ?? 1200);
const database = useAppDatabase();
let server: InProcessServer;
let port: number;
let dataDir: string;
const cookies: Record<"none" | "customer" | "admin" | "forged", string> = {
  none: "",
  customer: "",
  admin: "",
  forged: "__session=s%3Aforged.bad; toast-session=junk",
};
const ids: { quote: string; service: string; customer: string; invoice: string; plan: string; planVisit: string } = {
  quote: "",
  service: "",
  customer: "",
  invoice: "",
  plan: "",
  planVisit: "",
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "corpus-"));
  process.env.DATA_DIR = dataDir; // uploads go to a temporary folder
  process.env.SANITY_WEBHOOK_SECRET = "corpus-webhook-secret";
  // Texts configured, so that the Twilio webhook checks signatures (the API is never reached:
  // a text is only queued by the requests here).
  process.env.TWILIO_ACCOUNT_SID = `AC${"0".repeat(32)}`;
  process.env.TWILIO_AUTH_TOKEN = "corpus-twilio-auth-token";
  process.env.TWILIO_FROM = "+17025550199";
  // Stripe configured, so that its webhook checks signatures and the Billing page's forms are
  // live; its API is a closed port (nothing here may reach it with a valid request).
  process.env.STRIPE_SECRET_KEY = "sk_test_corpus0123456789";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_corpus0123456789";
  process.env.STRIPE_API_BASE_URL = "http://127.0.0.1:9";
  server = await startInProcessServer({ cspNonce: "corpus", trustProxy: true, publicFiles: true, plainErrors: true });
  port = server.port;

  const db = database.current.db;
  const admin = await createUser(db, { admin: true });
  const customer = await createUser(db);
  cookies.admin = await sessionCookieFor(admin.id);
  cookies.customer = await sessionCookieFor(customer.id);
  ids.customer = customer.id;
  ids.service = (await createVisitRow(db, customer.id)).id;
  // Issue 35: the customer has a plan (Your Plan, the admin's plan forms), its visits (Today's
  // forms) and an open invoice (the billing pages and their forms).
  const plan = await startWeeklyPlanAhead(db, { customerId: customer.id, adminId: admin.id, daysAhead: 1 });
  ids.plan = plan.id;
  ids.planVisit = (
    await db.selectFrom("services").select("id").where("plan_id", "=", plan.id).executeTakeFirstOrThrow()
  ).id;
  ids.invoice = await createOpenInvoice(db, customer.id);
  ids.quote = (
    await db
      .insertInto("quote_requests")
      .values({
        name: "Corpus",
        phone: "7025550100",
        email: "corpus@example.com",
        address: "1 Test St",
        zip: "89048",
        dogs: 1,
        yard_size: "small",
        service: "weekly",
        message: null,
        client_key: "corpus",
        dedupe_key: "corpus",
      } as never)
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  delete process.env.SANITY_WEBHOOK_SECRET;
  delete process.env.TWILIO_ACCOUNT_SID;
  delete process.env.TWILIO_AUTH_TOKEN;
  delete process.env.TWILIO_FROM;
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  delete process.env.STRIPE_API_BASE_URL;
});

// ------------------------------------------------------------------------------------------
// Arbitraries

const nasty = fc.constantFrom(
  "",
  " ",
  "%",
  "%zz",
  "%ED%A0%80",
  "%00",
  "..",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "' or 1=1--",
  "\u0000",
  "\uFFFF",
  "😀",
  "a".repeat(3000),
  "null",
  "undefined",
  "[]",
  "{}",
  "-1",
  "0",
  "1e309",
  "NaN",
  "00000000-0000-0000-0000-000000000000",
  "9999999999999999999999",
  "true",
  "admin",
  "__proto__",
  "constructor",
);
const text = fc.oneof(nasty, fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 }), fc.uuid());
const segment = fc.oneof(
  text.map((s) => encodeURIComponent(s)),
  fc.constantFrom("%", "%zz", "%ED%A0%80", "%E0%A4%A", "%2F", "%2e%2e", "..", ".", "%25", "%C0%AF"),
);
const realIds = fc
  .constantFrom("quote", "service", "customer", "invoice", "plan", "planVisit")
  .map((k) => ids[k as keyof typeof ids]);
const idLike = fc.oneof(segment, realIds);
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          "tab",
          "service",
          "customer",
          "status",
          "page",
          "sent",
          "_data",
          "index",
          "code",
          "state",
          "error",
          "q",
        ),
        text,
      ),
      fc.oneof(text, realIds),
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")}` : "",
  );
const dataParam = fc.constantFrom(
  "",
  "",
  "",
  "",
  "",
  "",
  "root",
  "routes/_index",
  "routes/contact",
  "routes/auth",
  "routes/admin-dashboard._index",
  "routes/resources.media-upload",
  "routes/$",
  "nope",
);

const pathArb = fc.oneof(
  fc.constantFrom(
    "/",
    "/about",
    "/accessibility",
    "/services",
    "/contact",
    "/auth",
    "/auth/google",
    "/auth/facebook",
    "/auth/set-password",
    "/auth/set-password?token=abc",
    "/logout",
    "/admin-dashboard",
    "/admin-dashboard/quotes",
    "/customer-dashboard",
    "/disclaimer",
    "/privacy-policy",
    "/terms-of-service",
    "/resources/healthcheck",
    "/resources/sanity-webhook",
    "/resources/webhooks/cal-com",
    "/resources/webhooks/calendly",
    "/resources/webhooks/twilio",
    "/resources/webhooks/stripe",
    // A webhook's path that Remix routes elsewhere (server/cross-site.js decides on that one).
    "/resources/webhooks/../../customer-dashboard/billing",
    "/resources/webhooks/%2e%2e/%2e%2e/admin-dashboard/billing",
    "/customer-dashboard/billing",
    "/customer-dashboard/yard",
    // "Text me again" posts to Your Yard with this query (decision 109).
    "/customer-dashboard/yard?intent=text-again",
    "/admin-dashboard/visits/today",
    "/resources/media-upload",
    // Added since the corpus was written (issue 35): Your Plan, Billing, Today, the lists.
    "/customer-dashboard/plan",
    "/customer-dashboard/visits",
    "/admin-dashboard/billing",
    "/admin-dashboard/billing?status=open",
    "/admin-dashboard/customers",
    "/admin-dashboard/visits",
    "/admin-dashboard/bookings",
    "/admin-dashboard/visits/today?day=2030-01-01",
    "/resources/customer-search",
    "/account/security",
    "/auth/forgot-password",
    "/auth/reset-password",
    "/auth/verify",
    "/gallery",
    "/robots.txt",
    "/sitemap.xml",
    "/test-only/error",
  ),
  segment.map((s) => `/services/${s}`),
  segment.map((s) => `/auth/${s}`),
  segment.map((s) => `/auth/${s}/callback`),
  idLike.map((s) => `/admin-dashboard/quotes/${s}`),
  idLike.map((s) => `/resources/media/${s}`),
  idLike.map((s) => `/admin-dashboard/visits/${s}/on-my-way`),
  // Added since the corpus was written (issue 35): visits, customers, invoices and their PDF.
  idLike.map((s) => `/admin-dashboard/visits/${s}`),
  idLike.map((s) => `/admin-dashboard/customers/${s}`),
  idLike.map((s) => `/admin-dashboard/billing/${s}`),
  idLike.map((s) => `/customer-dashboard/billing/${s}`),
  idLike.map((s) => `/customer-dashboard/billing/${s}/pdf`),
  idLike.map((s) => `/customer-dashboard/visits/${s}`),
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join("/")}`),
);

const formFields = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      "intent",
      "email",
      "password",
      "fullName",
      "name",
      "phone",
      "address",
      "zip",
      "dogs",
      "yardSize",
      "service",
      "message",
      "website",
      "customerId",
      "serviceType",
      "serviceDate",
      "notes",
      "status",
      "agree",
      // The quote page's "Create customer and plan" and /auth/set-password.
      "street",
      "city",
      "cataloguePlanId",
      "weekdays",
      "dogCount",
      "startDate",
      "token",
      "returnTo",
      "estimate",
      "mobilePhone",
      "textVisits",
      "From",
      "Body",
      "MessageSid",
      // Your Plan, Billing, invoices and Today's forms (issue 35).
      "amount",
      "method",
      "note",
      "paymentId",
      "invoiceId",
      "planId",
      "visitId",
      "reason",
      "reasonText",
      "healthFlags",
      "healthNote",
      "looseDog",
      "notifyVisitEmails",
      "gateCode",
      "latitude",
      "longitude",
      "accuracy",
      "date",
      "from",
      "until",
      "mediaId",
      "key",
      "confirm",
      "day",
      "missedReason",
    ),
    text,
  ),
  fc.oneof(
    text,
    realIds,
    fc.constantFrom(
      "signin",
      "signup",
      "weekly",
      "Desert Dash",
      "2025-05-01T09:00",
      "contacted",
      "5",
      "create-customer",
      "servicePlan.weekly",
      "2",
      "today",
      "STOP",
      "HELP",
      "+17025550123",
      "on",
      // The intents of the forms added since (issue 35), and values they take.
      "pay-now",
      "add-card",
      "charge-card",
      "record-payment",
      "refund",
      "void",
      "uncollectible",
      "skip",
      "undo-skip",
      "pause",
      "resume",
      "pause-plan",
      "resume-plan",
      "cancel-plan",
      "change-plan",
      "start-plan",
      "reschedule",
      "complete",
      "miss",
      "health",
      "notes",
      "move-up",
      "move-down",
      "optimise",
      "return-visit",
      "yard-location",
      "cash",
      "check",
      "89.00",
      "-5",
      "0.001",
      "2030-01-01",
      "36.1699",
      "-115.1398",
      "1e6",
    ),
  ),
  { maxKeys: 8 },
);

type Spec = { method: string; path: string; headers: Record<string, string>; body?: Buffer; who: keyof typeof cookies };

const bodyArb: fc.Arbitrary<{ type?: string; body: Buffer }> = fc.oneof(
  formFields.map((f) => ({
    type: "application/x-www-form-urlencoded",
    body: Buffer.from(new URLSearchParams(f).toString()),
  })),
  fc.constant(null).map(() => ({
    type: "application/x-www-form-urlencoded",
    body: Buffer.from(new URLSearchParams(goodQuote()).toString()),
  })),
  formFields.map((f) => {
    const boundary = "corpusBoundary";
    const parts = Object.entries(f).map(
      ([k, v]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, "")}"\r\n\r\n${v}\r\n`,
    );
    const file = `--${boundary}\r\nContent-Disposition: form-data; name="before"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n garbage\r\n`;
    return {
      type: `multipart/form-data; boundary=${boundary}`,
      body: Buffer.from(parts.join("") + file + `--${boundary}--\r\n`),
    };
  }),
  fc.string({ maxLength: 200 }).map((s) => ({ type: "multipart/form-data; boundary=zz", body: Buffer.from(s) })),
  fc.jsonValue().map((v) => ({ type: "application/json", body: Buffer.from(JSON.stringify(v) ?? "null") })),
  // Shaped like the webhooks' events (Stripe, Cal.com, Calendly), with odd objects inside.
  fc
    .record({
      id: fc.oneof(fc.constant("evt_corpus"), text),
      type: fc.oneof(
        fc.constantFrom(
          "payment_intent.succeeded",
          "payment_intent.payment_failed",
          "setup_intent.succeeded",
          "checkout.session.completed",
          "charge.refunded",
          "BOOKING_CREATED",
          "invitee.created",
        ),
        text,
      ),
      triggerEvent: fc.oneof(fc.constantFrom("BOOKING_CREATED", "BOOKING_CANCELLED"), text),
      data: fc.record({ object: fc.dictionary(text, fc.oneof(text, realIds, fc.integer())) }),
      payload: fc.dictionary(text, fc.oneof(text, realIds)),
    })
    .map((v) => ({ type: "application/json", body: Buffer.from(JSON.stringify(v)) })),
  fc
    .tuple(
      fc.constantFrom(
        "text/plain",
        "application/xml",
        "",
        "multipart/form-data",
        "application/x-www-form-urlencoded; charset=utf-16",
      ),
      fc.uint8Array({ maxLength: 300 }),
    )
    .map(([type, bytes]) => ({ type: type || undefined, body: Buffer.from(bytes) })),
);

const headerArb = fc.record(
  {
    "x-twilio-signature": fc.oneof(
      fc.constantFrom("", "garbage", "bm90IGEgc2lnbmF0dXJl"),
      fc.string({ maxLength: 30 }),
    ),
    "stripe-signature": fc.oneof(
      fc.constantFrom("t=1,v1=abc", "garbage", `t=${Math.floor(Date.now() / 1000)},v1=00`),
      fc.string({ maxLength: 30 }),
    ),
    "sanity-webhook-signature": fc.oneof(
      fc.constantFrom("t=1,v1=abc", "garbage", `t=${Date.now()},v1=xyz`),
      fc.string({ maxLength: 30 }),
    ),
    range: fc.oneof(
      fc.constantFrom(
        "bytes=0-",
        "bytes=-5",
        "bytes=5-1",
        "bytes=0-99999999999",
        "bytes=a-b",
        "bytes=0-1,3-4",
        "items=0-1",
      ),
      fc.string({ maxLength: 20 }),
    ),
    "x-forwarded-for": fc.oneof(fc.ipV4(), fc.constantFrom("unknown", "::1", "1.2.3.4, 5.6.7.8", "nonsense")),
    "x-requested-with": fc.constant("XMLHttpRequest"),
    accept: fc.constantFrom("*/*", "application/json", "text/html", "image/webp"),
    "if-none-match": fc.string({ maxLength: 20 }),
    // Cross-site writes are refused before Remix (server/cross-site.js), as in server.js.
    origin: fc.constantFrom("https://evil.example", "null", "http://localhost:3000"),
    "sec-fetch-site": fc.constantFrom("cross-site", "same-site", "same-origin", "none"),
  },
  { requiredKeys: [] },
);
// Header values must be printable ASCII or Node's client refuses to send them.
const printable = (value: string) => value.replace(/[^\x20-\x7e]/g, "");

const requestArb: fc.Arbitrary<Spec> = fc
  .record({
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom("GET", "POST") },
      { weight: 1, arbitrary: fc.constantFrom("HEAD", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE") },
    ),
    path: pathArb,
    query: queryString,
    data: dataParam,
    headers: headerArb,
    body: bodyArb,
    who: fc.constantFrom("none", "customer", "admin", "forged") as fc.Arbitrary<keyof typeof cookies>,
  })
  .map(({ method, path: p, query, data, headers, body, who }) => {
    let full = p + query;
    if (data) full += `${full.includes("?") ? "&" : "?"}_data=${encodeURIComponent(data)}`;
    const sent: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) sent[k] = printable(v);
    const withBody = method !== "GET" && method !== "HEAD";
    if (withBody && body.type) sent["content-type"] = body.type;
    return { method, path: full, headers: sent, body: withBody ? body.body : undefined, who };
  });

// ------------------------------------------------------------------------------------------

function send(spec: Spec): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...spec.headers };
    if (cookies[spec.who]) headers.cookie = cookies[spec.who];
    if (spec.body) headers["content-length"] = spec.body.byteLength;
    const req = http.request({ host: "127.0.0.1", port, method: spec.method, path: spec.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(spec.body);
  });
}

const TABLES_QUERY = sql<{
  table_name: string;
}>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;

async function rowCounts(): Promise<Record<string, number>> {
  const db = database.current.db;
  const tables = (await TABLES_QUERY.execute(db)).rows.map((r) => r.table_name).filter((t) => !t.startsWith("kysely_"));
  const union = sql.join(
    tables.map((t) => sql`select ${t} as t, count(*)::int as n from ${sql.table(t)}`),
    sql` union all `,
  );
  const rows = (await sql<{ t: string; n: number }>`${union}`.execute(db)).rows;
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

// A stack frame ("    at fn (/path/file.js:12:34)") or a file path of this machine.
const STACK = /\n\s+at .+[:(]\d+:\d+\)?|node_modules\/|\/work\/|file:\/\//;

test(`${RUNS} bad requests: no 5xx, no stack trace, no row written by a refused request`, async () => {
  const histogram: Record<number, number> = {};
  let tried = 0;
  let refusedWrites = 0;
  await fc.assert(
    fc.asyncProperty(requestArb, async (spec) => {
      const before = await rowCounts();
      const { status, body } = await send(spec);
      const after = await rowCounts();
      tried += 1;
      histogram[status] = (histogram[status] ?? 0) + 1;
      expect(status, `${spec.method} ${spec.path} (${spec.who}): ${body.slice(0, 200)}`).toBeLessThan(500);
      expect(STACK.test(body), `stack trace in ${spec.method} ${spec.path}: ${body.slice(0, 300)}`).toBe(false);
      if (status >= 400) {
        // A failed sign-in (401) is counted on purpose: the only row a refusal may add.
        const grown = Object.keys(after).filter(
          (t) => after[t] > (before[t] ?? 0) && !(status === 401 && t === "rate_limits"),
        );
        if (grown.length) refusedWrites += 1;
        expect(grown, `${status} ${spec.method} ${spec.path} wrote rows`).toEqual([]);
      }
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
  console.log(
    `bad-input corpus (${database.current.kind}): ${tried} requests, status histogram ${JSON.stringify(histogram)}, ` +
      `5xx ${Object.entries(histogram)
        .filter(([s]) => Number(s) >= 500)
        .reduce((n, [, c]) => n + c, 0)}, rows written by refused requests ${refusedWrites}`,
  );
  expect(tried).toBeGreaterThanOrEqual(1000);
}, 180_000);
