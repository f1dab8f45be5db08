// `npm run load`: 50 simulated users for 60 s against the production build on loopback,
// mixing public pages, quote posts, sign-ins, dashboards and media range requests.
// Prints p50/p95/p99 latency, requests, errors, status codes and the server's RSS.
// LOAD_CONNECTIONS / LOAD_SECONDS change the size; BENCH_DATABASE_URL (or DATABASE_URL) runs
// it on PostgreSQL instead of a fresh PGlite folder. Goal: 0 errors, 0 5xx.
import { randomBytes } from "node:crypto";
import type autocannon from "autocannon";
import { rssMiB, startAppServer } from "../tests/helpers/app-server";
import { DEV_ADMIN_TOTP_SECRET, totpCode } from "../tests/helpers/totp";
import { percentile, runLoad } from "./_load";

const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS || 50);
const SECONDS = Number(process.env.LOAD_SECONDS || 60);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("__session="));

/** Signs in through the forms, answering the two-step challenge (the dev admin has one) as an app would. */
async function signIn(base: string, email: string, password: string) {
  const response = await fetch(`${base}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form({ intent: "signin", email, password }),
  });
  let signedIn = response;
  if (response.headers.get("Location")?.startsWith("/auth/verify")) {
    const challenge = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    signedIn = await fetch(`${base}/auth/verify`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: challenge },
      body: form({ code: totpCode(DEV_ADMIN_TOTP_SECRET) }),
    });
  }
  const cookie = cookieOf(signedIn);
  if (!cookie || signedIn.status !== 302) throw new Error(`sign-in of ${email} failed: ${signedIn.status}`);
  return cookie;
}

/** One uploaded video for the media range requests, through the admin's own forms. */
async function prepareMedia(base: string, adminCookie: string, customerCookie: string) {
  // The Create Service picker's own search (it never lists every customer).
  const search = await fetch(`${base}/resources/customer-search?q=customer%40example.com`, {
    headers: { Cookie: adminCookie },
  });
  const { customers } = (await search.json()) as { customers: { id: string }[] };
  const customerId = customers[0]?.id;
  if (!customerId) throw new Error("the dev customer is not found by the picker's search");
  const created = await fetch(`${base}/admin-dashboard?index&tab=create`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: adminCookie },
    body: form({
      customerId,
      serviceType: "Weekly Service",
      serviceDate: new Date().toISOString().slice(0, 16),
      notes: "load test",
    }),
  });
  const location = created.headers.get("Location") ?? "";
  const visitId = /service=([0-9a-f-]{36})/.exec(location)?.[1];
  if (!visitId) throw new Error(`visit not created: ${created.status} ${location}`);
  // The database may hold media of earlier runs (BENCH_DATABASE_URL persists; each run's upload
  // folder does not): the range requests use the one uploaded now, the id that was not there before.
  const mediaIds = async () =>
    new Set(
      [
        ...(await (await fetch(`${base}/customer-dashboard`, { headers: { Cookie: customerCookie } })).text()).matchAll(
          /\/resources\/media\/([0-9a-f-]{36})/g,
        ),
      ].map((match) => match[1]),
    );
  const before = await mediaIds();
  const video = Buffer.concat([
    Buffer.from("00000018667479706d7034320000000069736f6d6d703432", "hex"),
    Buffer.alloc(2 * 1024 * 1024, 0x2a),
  ]);
  const body = new FormData();
  body.append("after", new Blob([video], { type: "video/mp4" }), "yard.mp4");
  const uploaded = await fetch(`${base}/resources/media-upload?service=${visitId}&customer=${customerId}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: adminCookie },
    body,
  });
  if (uploaded.status !== 302) throw new Error(`upload failed: ${uploaded.status}`);
  const media = [...(await mediaIds())].find((id) => !before.has(id));
  if (!media) throw new Error("the uploaded media is not on the customer's dashboard");
  return `/resources/media/${media}`;
}

async function main() {
  const app = await startAppServer(
    {
      SEED_DEV_DATA: "true",
      SESSION_SECRET: "load-secret-load-secret-load-secret-123456",
      // The bench is the one proxy in front: each simulated visitor's X-Forwarded-For address is
      // its client address, so per-client limits see 50 people, not one address flooding.
      TRUST_PROXY: "1",
      LOG_LEVEL: "error",
      ...(DATABASE_URL ? { DATABASE_URL } : {}),
    },
    { ready: "healthy", stdio: "inherit" },
  );
  const server = app.child;
  const base = app.url;
  try {
    // Several customers sign in, as in life: one address signed into 50 times at once would
    // (rightly) meet the per-address limit.
    const signInUsers = Array.from({ length: 10 }, (_, i) => ({
      email: `load-user-${i}@example.com`,
      password: "load-password",
    }));
    for (const [i, user] of signInUsers.entries()) {
      await fetch(`${base}/auth?tab=signup`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": `10.200.0.${i}` },
        body: form({ intent: "signup", fullName: `Load User ${i}`, email: user.email, password: user.password }),
      });
    }
    let nextUser = 0;
    const adminCookie = await signIn(base, "admin@example.com", "admin-password");
    const customerCookie = await signIn(base, "customer@example.com", "customer-password");
    const mediaPath = await prepareMedia(base, adminCookie, customerCookie);

    let n = 0;
    // Each simulated visitor has an address of its own, so per-client limits treat them as people.
    const visitor = () => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}`;
    const formHeaders = { "content-type": "application/x-www-form-urlencoded" };
    const mix: (autocannon.Request & { label: string })[] = [
      { label: "GET /", method: "GET", path: "/" },
      { label: "GET /services", method: "GET", path: "/services" },
      { label: "GET /services/weekly", method: "GET", path: "/services/weekly" },
      {
        label: "POST /contact (quote)",
        method: "POST",
        path: "/contact?index",
        headers: formHeaders,
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          headers: { ...req.headers, "x-forwarded-for": visitor() },
          body: form({
            name: "Load Visitor",
            phone: "(702) 555-0123",
            email: `load-${randomBytes(5).toString("hex")}@example.com`,
            address: "1 Load Test Way",
            zip: "89048",
            dogs: "2",
            yardSize: "medium",
            service: "weekly",
            message: "",
            website: "",
          }),
        }),
      },
      { label: "GET /about", method: "GET", path: "/about" },
      {
        label: "POST /auth (sign-in)",
        method: "POST",
        path: "/auth",
        headers: formHeaders,
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          headers: { ...req.headers, "x-forwarded-for": visitor() },
          body: form({ intent: "signin", ...signInUsers[nextUser++ % signInUsers.length] }),
        }),
      },
      {
        label: "GET /customer-dashboard",
        method: "GET",
        path: "/customer-dashboard",
        headers: { cookie: customerCookie },
      },
      { label: "GET /admin-dashboard", method: "GET", path: "/admin-dashboard", headers: { cookie: adminCookie } },
      {
        label: "GET media bytes=0-65535",
        method: "GET",
        path: mediaPath,
        headers: { cookie: customerCookie, range: "bytes=0-65535" },
      },
      {
        label: "GET media bytes=1048576-",
        method: "GET",
        path: mediaPath,
        headers: { cookie: customerCookie, range: "bytes=1048576-" },
      },
      { label: "GET /contact", method: "GET", path: "/contact" },
    ];

    // Per request of the mix: what was sent, how it was answered and how fast, so an error or a
    // slow tail points at its route. A request sent and never answered timed out (or was in flight
    // at the end).
    type RouteStats = { sent: number; latencies: number[]; codes: Record<string, number> };
    const byRoute = new Map<string, RouteStats>(mix.map((item) => [item.label, { sent: 0, latencies: [], codes: {} }]));
    type Context = { label?: string; sentAt?: number };
    type Setup = (req: autocannon.Request, context: Context) => autocannon.Request;
    const requests: autocannon.Request[] = mix.map(({ label, ...request }) => ({
      ...request,
      setupRequest: (req: autocannon.Request, context: Context) => {
        context.label = label;
        context.sentAt = performance.now();
        byRoute.get(label)!.sent++;
        const own = request.setupRequest as Setup | undefined;
        return own ? own(req, context) : req;
      },
      onResponse: (status: number, _body: string, context: Context) => {
        const stats = byRoute.get(label)!;
        if (context.sentAt !== undefined) stats.latencies.push(performance.now() - context.sentAt);
        stats.codes[status] = (stats.codes[status] ?? 0) + 1;
      },
    }));

    const rssStart = rssMiB(server.pid!);
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(server.pid!))), 250);
    console.log(
      `load: ${CONNECTIONS} users for ${SECONDS} s on ${DATABASE_URL ? "PostgreSQL" : "PGlite"}; server RSS at start ${rssStart.toFixed(0)} MiB`,
    );
    const { result, p50, p95, p99, max } = await runLoad({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests,
      timeout: 20,
    });
    const ms = (value: number) => (Number.isNaN(value) ? "n/a" : value.toFixed(1));
    clearInterval(sampler);
    const rssEnd = rssMiB(server.pid!);

    const codes = Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]),
    );
    const fiveXX = Object.entries(codes)
      .filter(([code]) => Number(code) >= 500)
      .reduce((sum, [, c]) => sum + c, 0);
    // A 429 (with Retry-After) to a form post is the flood protection doing its job: a client
    // over its limit, or sign-ins beyond a few seconds of queued password checks (decision 055).
    // Any other status outside 200/206/302 is unexpected.
    let refused = 0;
    let unexpected = 0;
    for (const [label, stats] of byRoute)
      for (const [code, count] of Object.entries(stats.codes)) {
        if (code === "429" && label.startsWith("POST ")) refused += count;
        else if (!["200", "206", "302"].includes(code)) unexpected += count;
      }
    console.log(`requests      ${result.requests.total} (${result.requests.average.toFixed(0)}/s)`);
    console.log(`latency ms    p50 ${ms(p50)}  p95 ${ms(p95)}  p99 ${ms(p99)}  max ${ms(max)}`);
    console.log(`status codes  ${JSON.stringify(codes)}`);
    console.log(
      `errors        ${result.errors} (timeouts ${result.timeouts}); 5xx ${fiveXX}   goal: 0, 0; refused with 429 (expected) ${refused}; other unexpected statuses ${unexpected}`,
    );
    const at = (sorted: number[], p: number) => (sorted.length ? percentile(sorted, p).toFixed(0) : "-");
    console.log("per request   sent  answered  unanswered  p50 ms  p95 ms  max ms  status codes");
    for (const [label, stats] of byRoute) {
      const sorted = [...stats.latencies].sort((a, b) => a - b);
      const answered = sorted.length;
      console.log(
        `  ${label.padEnd(28)} ${String(stats.sent).padStart(5)} ${String(answered).padStart(9)} ${String(Math.max(0, stats.sent - answered)).padStart(11)} ${at(sorted, 50).padStart(7)} ${at(sorted, 95).padStart(7)} ${(sorted.length ? sorted[sorted.length - 1].toFixed(0) : "-").padStart(7)}  ${JSON.stringify(stats.codes)}`,
      );
    }
    console.log(
      `server RSS    start ${rssStart.toFixed(0)} MiB, peak ${rssPeak.toFixed(0)} MiB, end ${rssEnd.toFixed(0)} MiB`,
    );
    process.exitCode = result.errors === 0 && fiveXX === 0 ? 0 : 1;
  } finally {
    await app.stop();
  }
}

await main();
