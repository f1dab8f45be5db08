import http from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { startInProcessServer, type InProcessServer } from "../helpers/in-process-server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { TINY_PNG } from "../helpers/media-bytes";
import { startTestSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { totpCode } from "../helpers/totp";

/**
 * The attacker's probe of issue 24 (items 1, 2, 3, 5, 6 and 7), over HTTP against the
 * production build. Items 1, 2, 3 and 6 need accounts in the database: the build runs in this
 * process behind server.js's middleware on a real socket (tests/helpers/in-process-server.ts),
 * on the test database. Items 5 and 7 are about what server.js itself does (its headers,
 * its log, the TCP peer it passes on): they run against `node server.js` (tests/helpers/app-server.ts).
 */

const database = useAppDatabase();
let server: InProcessServer;
let base = "";
let dataDir: string;
let smtp: TestSmtpServer;
let mediaId = "";

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "attack-accounts-"));
  // Read by the build's environment on its first request.
  process.env.DATA_DIR = dataDir;
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Swift Scoop <hello@example.com>";
  server = await startInProcessServer({ cspNonce: "attack" });
  base = server.base;

  // One customer's photo, stored where the build's folder storage reads it (rows and file
  // written directly: the probe needs no app module but the build).
  const db = database.current.db;
  const customer = await createUser(db);
  const visit = await db
    .insertInto("services")
    .values({
      customer_id: customer.id,
      service_type: "Weekly Service",
      service_date: new Date(Date.now() - 24 * 60 * 60 * 1000),
      status: "completed",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const key = `${customer.id}/${visit.id}/after_1.png`;
  mkdirSync(path.dirname(path.join(dataDir, "uploads", key)), { recursive: true });
  writeFileSync(path.join(dataDir, "uploads", key), TINY_PNG);
  mediaId = (
    await db
      .insertInto("service_images")
      .values({
        service_id: visit.id,
        image_url: key,
        image_type: "after",
        content_type: "image/png",
        size_bytes: TINY_PNG.length,
        uploaded_by: customer.id,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}, 240_000);

afterAll(async () => {
  await server?.close();
  await smtp?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  for (const name of ["SMTP_URL", "MAIL_FROM"]) delete process.env[name];
});

// ------------------------------------------------------------------------------------------
// A browser without JavaScript: a cookie jar, forms posted as forms, redirects not followed.

class Browser {
  cookies = new Map<string, string>();
  constructor(private readonly headers: Record<string, string> = {}) {}

  get cookie() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async send(method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...this.headers,
        ...(this.cookies.size ? { Cookie: this.cookie } : {}),
        ...(form ? { "Content-Type": "application/x-www-form-urlencoded", Origin: base } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form) : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      const gone = value === "" || attributes.some((a) => /max-age=0\b|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get = (path: string, headers?: Record<string, string>) => this.send("GET", path, undefined, headers);
  post = (path: string, form: Record<string, string>) => this.send("POST", path, form);
}

const location = (response: Response) => new URL(response.headers.get("Location") ?? "", base).pathname;

async function signIn(browser: Browser, user: TestUser) {
  const response = await browser.post("/auth", { intent: "signin", email: user.email, password: user.password });
  expect(response.status).toBe(302);
  return response;
}

const setupKeyIn = (html: string) => /Setup key\s*(?:<!-- -->)?\s*<code[^>]*>([A-Z2-7]{16,})<\/code>/.exec(html)?.[1];

async function setupKeyOf(browser: Browser) {
  expect((await browser.post("/account/security", { intent: "setup" })).status).toBe(302);
  const page = await browser.get("/account/security");
  expect(page.status).toBe(200);
  const key = setupKeyIn(await page.text());
  expect(key).toBeTruthy();
  return key!;
}

const sessionRows = (userId: string) =>
  database.current.db
    .selectFrom("sessions")
    .select(["id", "data", "expires_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();

// ------------------------------------------------------------------------------------------

describe("1. sessions carry their assurance", () => {
  test("a session signed in before enrolment is refused every admin page and photo after it", async () => {
    const admin = await createUser(database.current.db, { admin: true, twoStep: false });
    const early = new Browser(); // the attacker, with the admin's password, before two-step
    const owner = new Browser();
    await signIn(early, admin);
    await signIn(owner, admin);

    // Two-step off: admin pages and customers' photos are refused, with Range and If-None-Match too.
    expect(location(await early.get("/admin-dashboard"))).toBe("/account/security");
    const variants: Record<string, string>[] = [{}, { Range: "bytes=0-10" }, { "If-None-Match": `"${mediaId}"` }];
    for (const headers of variants) {
      expect((await early.get(`/resources/media/${mediaId}`, headers)).status).toBe(404);
    }

    // Enrolment in the owner's session.
    const key = await setupKeyOf(owner);
    const enabled = await owner.post("/account/security", { intent: "enable", code: totpCode(key) });
    expect(enabled.status).toBe(200);
    expect(await enabled.text()).toContain("Two-step verification is on");

    // The early session is over: no admin page, no photo, no action.
    const refused = await early.get("/admin-dashboard");
    expect(refused.status).toBe(302);
    expect(location(refused)).toBe("/auth");
    expect((await early.get(`/resources/media/${mediaId}`)).status).toBe(404);
    expect((await early.get("/admin-dashboard/customers")).status).toBe(302);
    // The owner's session passed its second step when enrolling: in.
    expect((await owner.get("/admin-dashboard")).status).toBe(200);
    expect((await owner.get(`/resources/media/${mediaId}`)).status).toBe(200);
  });

  test("a session without its second step is refused even while it lives (defence in depth)", async () => {
    const admin = await createUser(database.current.db, { admin: true });
    const legacy = new Browser();
    legacy.cookies.set("__session", (await sessionCookieFor(admin.id, { secondStep: false })).split("=")[1]);
    expect(location(await legacy.get("/admin-dashboard"))).toBe("/auth");
    expect((await legacy.get(`/resources/media/${mediaId}`)).status).toBe(404);
    const passed = new Browser();
    passed.cookies.set("__session", (await sessionCookieFor(admin.id)).split("=")[1]);
    expect((await passed.get("/admin-dashboard")).status).toBe(200);
  });

  test("two sessions see different setup keys; one's key does not enrol the other; each press makes a new one", async () => {
    const user = await createUser(database.current.db, { twoStep: false });
    const first = new Browser();
    const second = new Browser();
    await signIn(first, user);
    await signIn(second, user);
    const firstKey = await setupKeyOf(first);
    const secondKey = await setupKeyOf(second);
    expect(firstKey).not.toBe(secondKey);
    // The second session's page never shows the first one's key.
    expect(await (await second.get("/account/security")).text()).not.toContain(firstKey);
    // The attacker who saw the first key cannot enrol with it in their own session.
    const wrong = await second.post("/account/security", { intent: "enable", code: totpCode(firstKey) });
    expect(wrong.status).toBe(400);
    expect(await database.current.db.selectFrom("user_totp").where("user_id", "=", user.id).execute()).toHaveLength(0);
    // Pressing again replaces the key.
    const again = await setupKeyOf(first);
    expect(again).not.toBe(firstKey);
  });

  test("a GET of /account/security writes nothing", async () => {
    const user = await createUser(database.current.db, { twoStep: false });
    const browser = new Browser();
    await signIn(browser, user);
    const before = await sessionRows(user.id);
    const totpBefore = await database.current.db.selectFrom("user_totp").selectAll().execute();
    for (let i = 0; i < 3; i++) {
      const page = await browser.get("/account/security");
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(setupKeyIn(html)).toBeUndefined();
      expect(html).toContain("Set up two-step");
    }
    expect(await sessionRows(user.id)).toEqual(before);
    expect(await database.current.db.selectFrom("user_totp").selectAll().execute()).toEqual(totpBefore);
  });

  test("turning two-step off, and a password reset, end every other session", async () => {
    const user = await createUser(database.current.db, { twoStep: false });
    const owner = new Browser();
    await signIn(owner, user);
    const key = await setupKeyOf(owner);
    const enabled = await owner.post("/account/security", { intent: "enable", code: totpCode(key) });
    const recovery = [...(await enabled.text()).matchAll(/<code>([0-9a-f]{5}-[0-9a-f]{5})<\/code>/g)].map((m) => m[1]);
    expect(recovery).toHaveLength(10);

    const other = new Browser();
    await signIn(other, user);
    expect(location(await other.post("/auth/verify", { code: recovery[0] }))).toBe("/customer-dashboard");
    expect((await other.get("/customer-dashboard")).status).toBe(200);

    const off = await owner.post("/account/security", { intent: "disable", code: recovery[1] });
    expect(off.status).toBe(302);
    expect(location(await other.get("/customer-dashboard"))).toBe("/auth");
    expect((await owner.get("/customer-dashboard")).status).toBe(200);
    expect(await sessionRows(user.id)).toHaveLength(1);
  });
});

describe("2. wrong second-step codes are counted per account", () => {
  const TOO_MANY = "Too many attempts. Try again in 15 minutes.";
  const wrong = (i: number) => String(100000 + i);

  test("11 wrong codes over fresh challenges: the 11th is refused, and then the right code too", async () => {
    const admin = await createUser(database.current.db, { admin: true });
    for (let i = 0; i < 10; i++) {
      const attacker = new Browser();
      await signIn(attacker, admin);
      expect((await attacker.post("/auth/verify", { code: wrong(i) })).status).toBe(400);
    }
    const eleventh = new Browser();
    await signIn(eleventh, admin);
    const refused = await eleventh.post("/auth/verify", { code: wrong(10) });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(TOO_MANY);
    const right = await eleventh.post("/auth/verify", { code: totpCode(admin.totpSecret!) });
    expect(right.status).toBe(429);
    expect(eleventh.cookies.has("__session")).toBe(false);
    expect(await sessionRows(admin.id)).toHaveLength(0);
  });

  test("11 wrong codes in parallel: one is refused unchecked", async () => {
    const admin = await createUser(database.current.db, { admin: true });
    const attackers = [new Browser(), new Browser(), new Browser()];
    for (const attacker of attackers) await signIn(attacker, admin);
    const answers = await Promise.all(
      Array.from({ length: 11 }, (_, i) => attackers[i % 3].post("/auth/verify", { code: wrong(i) })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const late = new Browser();
    await signIn(late, admin);
    expect((await late.post("/auth/verify", { code: totpCode(admin.totpSecret!) })).status).toBe(429);
    expect(await sessionRows(admin.id)).toHaveLength(0);
  });
});

describe("3 and 6. links a scanner cannot consume; e-mails without a stranger's text", () => {
  test("HEAD and GET of the verification link change nothing; the page's POST verifies, without JavaScript", async () => {
    const email = `crafted-${Date.now()}@example.com`;
    const crafted = "Bob\nYour account is locked - confirm at https://evil.example/unlock\nThe Swift Scoop team";
    const before = smtp.messages.length;
    const signUp = await new Browser().post("/auth", {
      intent: "signup",
      fullName: crafted,
      email,
      password: "a long enough password",
    });
    expect(signUp.status).toBe(302);
    const [mail] = (await smtp.waitForMessages(before + 1)).slice(before);
    const body = mail.text ?? "";
    expect(body.startsWith("Hello Bob,\n")).toBe(true);
    for (const stranger of ["evil.example", "locked", "Swift Scoop team"]) expect(body).not.toContain(stranger);
    const link = new URL(/https?:\/\/\S+\/auth\/verify-email\?token=\S+/.exec(body)![0]);
    const verifiedAt = async () =>
      (
        await database.current.db
          .selectFrom("users")
          .select("email_verified_at")
          .where("email", "=", email)
          .executeTakeFirstOrThrow()
      ).email_verified_at;

    const scanner = new Browser();
    const head = await scanner.send("HEAD", link.pathname + link.search);
    expect(head.status).toBe(200);
    const page = await scanner.get(link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
    const html = await page.text();
    expect(await verifiedAt()).toBeNull();
    // The page works without JavaScript: a plain form that posts the token.
    const form = /<form method="post"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1] ?? "";
    expect(form).toContain("Verify my e-mail");
    const token = /name="token" value="([^"]+)"/.exec(form)?.[1];
    expect(token).toBe(link.searchParams.get("token"));
    expect(await verifiedAt()).toBeNull();

    const person = new Browser();
    const verified = await person.post(link.pathname + link.search, { token: token! });
    expect(verified.status).toBe(302);
    expect(await verifiedAt()).not.toBeNull();
    // Used once: a second press is refused, the page says the link is spent.
    expect((await person.get(link.pathname + link.search)).status).toBe(410);
  });

  test("HEAD and GET of a reset link leave it usable; its POST resets and ends every session", async () => {
    const user = await createUser(database.current.db, { fullName: "Eve\r\nClick https://evil.example" });
    const signedIn = new Browser();
    await signIn(signedIn, user);
    const before = smtp.messages.length;
    expect((await new Browser().post("/auth/forgot-password", { email: user.email })).status).toBeLessThan(400);
    const [mail] = (await smtp.waitForMessages(before + 1)).slice(before);
    expect(mail.text).not.toContain("evil.example");
    expect(mail.text?.startsWith("Hello Eve,\n")).toBe(true);
    const link = new URL(/https?:\/\/\S+\/auth\/reset-password\?token=\S+/.exec(mail.text ?? "")![0]);
    const scanner = new Browser();
    expect((await scanner.send("HEAD", link.pathname + link.search)).status).toBe(200);
    expect((await scanner.get(link.pathname + link.search)).status).toBe(200);
    expect((await scanner.get(link.pathname + link.search)).status).toBe(200);
    const reset = await new Browser().post(link.pathname, {
      token: link.searchParams.get("token")!,
      password: "a brand new password",
    });
    expect(location(reset)).toBe("/auth");
    expect(location(await signedIn.get("/customer-dashboard"))).toBe("/auth");
  });
});

describe("5 and 7. against node server.js: logs, token-page headers, limits per client and per /64", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startAppServer({
      LOG_LEVEL: "info",
      TRUST_PROXY: "1",
      GOOGLE_CLIENT_ID: "attack-google-id",
      GOOGLE_CLIENT_SECRET: "attack-google-secret",
    });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  /** A request from the TCP address `from` (any of 127/8 is this machine's). */
  function fromAddress(from: string, method: string, path: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const request = http.request(`${app.url}${path}`, { method, localAddress: from, headers }, (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      });
      request.on("error", reject);
      request.end();
    });
  }
  const startGoogle = (from: string, headers: Record<string, string> = {}) =>
    fromAddress(from, "POST", "/auth/google", { Origin: app.url, "Content-Length": "0", ...headers });
  const isRefusedStart = (response: { status: number; headers: http.IncomingHttpHeaders }) =>
    // A start is a redirect to the provider; a refusal goes back to /auth with its toast.
    !/^https:\/\//.test(String(response.headers.location ?? ""));

  test("the log keeps no token: a 404's Referer loses its query and fragment", async () => {
    const secret = "reset-token-that-must-not-be-logged";
    const response = await fetch(`${app.url}/no-such-page`, {
      headers: { Referer: `${app.url}/auth/reset-password?token=${secret}#${secret}-fragment` },
    });
    expect(response.status).toBe(404);
    await expect.poll(() => app.output()).toContain("http.not_found");
    expect(app.output()).toContain(`"referer":"${app.url}/auth/reset-password"`);
    expect(app.output()).not.toContain(secret);
  });

  test("token pages send one Referrer-Policy: no-referrer", async () => {
    for (const page of [
      "/auth/reset-password?token=abc",
      "/auth/set-password?token=abc",
      "/auth/verify-email?token=abc",
    ]) {
      const response = await fetch(`${app.url}${page}`);
      expect(response.headers.get("Referrer-Policy"), page).toBe("no-referrer");
    }
    expect((await fetch(`${app.url}/auth`)).headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });

  test("OAuth starts from two clients without a proxy header are counted apart", async () => {
    // Ten starts from one client use its limit up...
    for (let i = 0; i < 10; i++) expect(isRefusedStart(await startGoogle("127.0.0.2"))).toBe(false);
    expect(isRefusedStart(await startGoogle("127.0.0.2"))).toBe(true);
    // ...and another client still starts.
    expect(isRefusedStart(await startGoogle("127.0.0.3"))).toBe(false);
  });

  test("two IPv6 addresses of one /64 share a limit; the next /64 has its own", async () => {
    const via = (address: string) => ({ "X-Forwarded-For": address });
    for (let i = 1; i <= 10; i++) {
      expect(isRefusedStart(await startGoogle("127.0.0.4", via(`2001:db8:5:6::${i.toString(16)}`)))).toBe(false);
    }
    expect(isRefusedStart(await startGoogle("127.0.0.4", via("2001:db8:5:6:ffff:ffff:ffff:1")))).toBe(true);
    expect(isRefusedStart(await startGoogle("127.0.0.4", via("2001:db8:5:7::1")))).toBe(false);
  });
});
