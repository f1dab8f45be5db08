import { afterEach, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { completeSecondStep, formPost, get, settle, setCookie, toastOf } from "../helpers/auth-requests";
import { createUser } from "../helpers/factories";
import {
  AUTH_LIMITS,
  recordSignInFailure,
  setSleepForTests,
  signInDelayMs,
} from "~/features/accounts/auth-limits.server";
import { action as logoutAction } from "~/routes/logout";
import { getOptionalUser, requireUser } from "~/features/accounts/auth.server";
import { resetEnvCache } from "~/utils/env.server";
import { getSession } from "~/utils/session.server";
import { action, loader } from "~/routes/auth";
import { BUSY_MESSAGE } from "~/features/accounts/auth-limits.server";
import { setAverageHashMsForTests } from "~/features/accounts/password.server";

const database = useAppDatabase();
let ipCounter = 0;
/** Every test signs in from its own address, so the per-client limits never meet. */
const freshIp = () => `203.0.113.${++ipCounter}`;

const run = (request: Request) => settle(() => action({ request, params: {}, context: {} }));
const open = (request: Request) => settle(() => loader({ request, params: {}, context: {} }));

const signIn = (email: string, password: string, options: { ip?: string; cookie?: string } = {}) =>
  run(
    formPost("/auth", { intent: "signin", email, password }, { ip: options.ip ?? freshIp(), cookie: options.cookie }),
  );
const signUp = (fields: { fullName?: string; email?: string; password?: string }, ip = freshIp()) => {
  const sent: Record<string, string> = { intent: "signup" };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) sent[key] = value;
  return run(formPost("/auth?tab=signup", sent, { ip }));
};

async function usersWithEmail(email: string) {
  return database.current.db
    .selectFrom("users")
    .select(["id", "email", "password_hash"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .execute();
}

const withSession = (response: Response) => {
  const cookie = setCookie(response, "__session");
  if (!cookie) throw new Error("no session cookie");
  return cookie;
};

describe("bodies that are not a form", () => {
  it("answers 400 to JSON and stores nothing", async () => {
    const users = await database.current.db.selectFrom("users").select("id").execute();
    const request = new Request("http://localhost/auth", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "signin", email: "a@example.com", password: "x" }),
    });
    const response = await run(request);
    expect(response.status).toBe(400);
    expect(await database.current.db.selectFrom("users").select("id").execute()).toHaveLength(users.length);
    expect(await database.current.db.selectFrom("rate_limits").select("key").execute()).toHaveLength(0);
  });
});

describe("sign-up", () => {
  it("creates the user and profile, stores a hash, and sends them to Sign In with the spec's toast", async () => {
    const response = await signUp({ fullName: " Dana Doe ", email: "  Dana@Example.com ", password: "secret-6" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth");
    expect(await toastOf(response)).toMatchObject({
      type: "success",
      message: "Success!",
      description: "Account created successfully. You can now log in.",
    });
    // Sign-up does not sign in (the toast says "You can now log in").
    expect(setCookie(response, "__session")).toBeUndefined();

    const [user] = await usersWithEmail("dana@example.com");
    expect(user.email).toBe("Dana@Example.com");
    expect(user.password_hash).toMatch(/^scrypt\$/);
    expect(user.password_hash).not.toContain("secret-6");
    const profile = await database.current.db
      .selectFrom("profiles")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(profile.full_name).toBe("Dana Doe");
    const roles = await database.current.db
      .selectFrom("user_roles")
      .selectAll()
      .where("user_id", "=", user.id)
      .execute();
    expect(roles).toEqual([]);

    // And the new account can sign in.
    const signedIn = await signIn("dana@example.com", "secret-6");
    expect(signedIn.headers.get("Location")).toBe("/customer-dashboard");
  });

  it("refuses a taken address in any case with 'Sign up failed', keeping the values but not the password", async () => {
    await signUp({ fullName: "First", email: "taken@example.com", password: "first-password" });
    for (const email of ["taken@example.com", "  TAKEN@Example.COM "]) {
      const response = await signUp({ fullName: "Second", email, password: "second-password" });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.toast.message).toBe("Sign up failed");
      expect(body.toast.description).toMatch(/could not create an account/);
      expect(body.toast.description).not.toMatch(/exists|registered|taken/i);
      expect(body.result.initialValue).toMatchObject({ fullName: "Second" });
      expect(JSON.stringify(body)).not.toContain("second-password");
    }
    const users = await usersWithEmail("taken@example.com");
    expect(users).toHaveLength(1);
    const profile = await database.current.db
      .selectFrom("profiles")
      .select("full_name")
      .where("user_id", "=", users[0].id)
      .executeTakeFirstOrThrow();
    expect(profile.full_name).toBe("First");
  });

  it("checks the password length and the other fields on the server too", async () => {
    const short = await signUp({ fullName: "Shorty", email: "short@example.com", password: "12345" });
    expect(short.status).toBe(400);
    const body = await short.json();
    expect(body.result.error.password).toEqual(["Password must be at least 6 characters"]);
    expect(body.result.initialValue).toMatchObject({ fullName: "Shorty", email: "short@example.com" });
    expect(body.result.initialValue.password).toBeUndefined();
    expect(await usersWithEmail("short@example.com")).toHaveLength(0);

    const empty = await signUp({});
    expect(empty.status).toBe(400);
    const errors = (await empty.json()).result.error;
    expect(errors.fullName).toEqual(["Full name is required"]);
    expect(errors.email).toEqual(["Email is required"]);
    expect(errors.password).toEqual(["Password is required"]);

    const badEmail = await signUp({ fullName: "X", email: "not-an-email", password: "123456" });
    expect((await badEmail.json()).result.error.email).toEqual(["Enter a valid email address"]);
  });
});

describe("sign-in", () => {
  it("with the right password starts a session and welcomes the customer on their dashboard", async () => {
    const user = await createUser(database.current.db, { password: "right-password" });
    const response = await signIn(user.email, "right-password");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/customer-dashboard");
    expect(await toastOf(response)).toMatchObject({
      type: "success",
      message: "Welcome back!",
      description: "You've been logged in successfully.",
    });
    const cookie = withSession(response);
    expect(response.headers.getSetCookie().find((c) => c.startsWith("__session="))).toMatch(
      /HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/,
    );
    expect((await getOptionalUser(get("/", { cookie }), {}))?.id).toBe(user.id);
    const rows = await database.current.db
      .selectFrom("sessions")
      .select("user_id")
      .where("user_id", "=", user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("sends admins to the admin dashboard, through the second step", async () => {
    const admin = await createUser(database.current.db, { admin: true });
    const firstStep = await signIn(admin.email, admin.password);
    expect(firstStep.headers.get("Location")).toBe("/auth/verify");
    expect(setCookie(firstStep, "__session") ?? "__session=").toBe("__session=");
    const response = await completeSecondStep(firstStep, admin.totpSecret!);
    expect(response.headers.get("Location")).toBe("/admin-dashboard");
  });

  it("with a wrong password or an unknown address fails the same way, with 'Login failed'", async () => {
    const user = await createUser(database.current.db);
    const answers = [];
    for (const [email, password] of [
      [user.email, "wrong-password"],
      ["nobody@example.com", "wrong-password"],
    ]) {
      const response = await signIn(email, password);
      expect(response.status).toBe(401);
      expect(setCookie(response, "__session")).toBeUndefined();
      const body = await response.json();
      expect(body.toast).toEqual({ message: "Login failed", description: "Invalid email or password." });
      expect(body.result.initialValue.email).toBe(email);
      expect(body.result.initialValue.password).toBeUndefined();
      answers.push(body.toast);
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it("accepts the address in any case and with surrounding spaces", async () => {
    const user = await createUser(database.current.db, { email: "Mixed.Case@Example.com" });
    for (const typed of ["mixed.case@example.com", "  MIXED.CASE@EXAMPLE.COM  ", "\tMixed.Case@Example.com "]) {
      const response = await signIn(typed, user.password);
      expect(response.headers.get("Location"), typed).toBe("/customer-dashboard");
    }
  });

  it("refuses an account that has no password (Google/Facebook only)", async () => {
    await database.current.db
      .insertInto("users")
      .values({ email: "oauth-only@example.com", password_hash: null })
      .execute();
    const response = await signIn("oauth-only@example.com", "anything");
    expect(response.status).toBe(401);
  });

  it("always issues a new session id and drops the one the visitor had", async () => {
    const user = await createUser(database.current.db);
    const before = withSession(await signIn(user.email, user.password));
    const after = withSession(await signIn(user.email, user.password, { cookie: before }));
    expect(after).not.toBe(before);
    expect(await getOptionalUser(get("/", { cookie: before }), {})).toBeNull();
    expect((await getOptionalUser(get("/", { cookie: after }), {}))?.id).toBe(user.id);
  });

  it("requires both fields", async () => {
    const response = await run(formPost("/auth", { intent: "signin", email: "", password: "" }, { ip: freshIp() }));
    expect(response.status).toBe(400);
    const errors = (await response.json()).result.error;
    expect(errors.email).toEqual(["Email is required"]);
    expect(errors.password).toEqual(["Password is required"]);
  });
});

describe("opening /auth", () => {
  it("shows Sign In by default and Sign Up by URL", async () => {
    // `script`: the page's browser script (decision 068), null when it was not built.
    expect(await (await open(get("/auth"))).json()).toMatchObject({ tab: "signin", returnPath: null });
    expect(await (await open(get("/auth?tab=signup"))).json()).toMatchObject({ tab: "signup", returnPath: null });
    expect(await (await open(get("/auth?tab=nonsense"))).json()).toMatchObject({ tab: "signin", returnPath: null });
  });

  it("with a live session sends admins and customers to their dashboards", async () => {
    const admin = await createUser(database.current.db, { admin: true });
    const customer = await createUser(database.current.db);
    for (const [user, home] of [
      [admin, "/admin-dashboard"],
      [customer, "/customer-dashboard"],
    ] as const) {
      let signedIn = await signIn(user.email, user.password);
      if (user.totpSecret) signedIn = await completeSecondStep(signedIn, user.totpSecret);
      const cookie = withSession(signedIn);
      const response = await open(get("/auth?tab=signup", { cookie }));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(home);
    }
  });
});

describe("sessions", () => {
  it("expire on the server: an expired session no longer counts and /auth shows the form", async () => {
    const user = await createUser(database.current.db);
    const cookie = withSession(await signIn(user.email, user.password));
    await database.current.db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", user.id)
      .execute();
    expect(await getOptionalUser(get("/", { cookie }), {})).toBeNull();
    expect((await open(get("/auth", { cookie }))).status).toBe(200);
    const protectedResponse = await settle(() => requireUser(get("/customer-dashboard", { cookie }), {}));
    expect(protectedResponse.headers.get("Location")).toBe("/auth?redirectTo=%2Fcustomer-dashboard");
  });

  it("end at sign-out: a copied cookie is useless afterwards", async () => {
    const user = await createUser(database.current.db);
    const cookie = withSession(await signIn(user.email, user.password));
    const stolen = cookie;
    const response = await settle(() =>
      logoutAction({ request: formPost("/logout", {}, { cookie }), params: {}, context: {} }),
    );
    expect(response.headers.get("Location")).toBe("/");
    expect(await toastOf(response)).toMatchObject({
      message: "Signed out",
      description: "You've been logged out successfully.",
    });
    const left = await database.current.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(left).toEqual([]);
    expect(await getOptionalUser(get("/", { cookie: stolen }), {})).toBeNull();
    expect(
      (await settle(() => requireUser(get("/customer-dashboard", { cookie: stolen }), {}))).headers.get("Location"),
    ).toBe("/auth?redirectTo=%2Fcustomer-dashboard");
  });
});

describe("a body that is not a form", () => {
  it("answers 400, not 500", async () => {
    for (const [type, body] of [
      ["application/json", '{"email":"a@b.c"}'],
      ["multipart/form-data; boundary=xyz", "--nonsense"],
    ]) {
      const request = new Request("http://localhost:3000/auth", {
        method: "POST",
        headers: { "Content-Type": type },
        body,
      });
      const response = await run(request);
      expect(response.status, type).toBe(400);
    }
  });
});

describe("brute-force limits", () => {
  afterEach(() => setSleepForTests(undefined));

  it(`refuse the ${AUTH_LIMITS.signInPerPair.limit + 1}th attempt of one client on one address with 429, even with the right password`, async () => {
    const user = await createUser(database.current.db);
    const ip = freshIp();
    for (let i = 0; i < AUTH_LIMITS.signInPerPair.limit; i++) {
      expect((await signIn(user.email, `wrong-${i}`, { ip })).status).toBe(401);
    }
    const limited = await signIn(user.email, user.password, { ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await limited.json();
    expect(body.toast.message).toBe("Login failed");
    expect(body.toast.description).toMatch(/^Too many attempts\. Please wait 1[45] minutes and try again\.$/);
    expect(setCookie(limited, "__session")).toBeUndefined();
  });

  it("100 wrong guesses from one client do not stop the owner signing in from another", async () => {
    const user = await createUser(database.current.db);
    const attacker = freshIp();
    const answers = new Set<number>();
    for (let i = 0; i < 100; i++) answers.add((await signIn(user.email, `guess-${i}`, { ip: attacker })).status);
    expect([...answers].sort()).toEqual([401, 429]);
    const owner = await signIn(user.email, user.password, { ip: freshIp() });
    expect(owner.status).toBe(302);
    expect(owner.headers.get("Location")).toBe("/customer-dashboard");
    expect(setCookie(owner, "__session")).toBeDefined();
  });

  it("guesses at one address from many clients only slow it down, never refuse the owner", async () => {
    const delays: number[] = [];
    setSleepForTests(async (ms) => void delays.push(ms));
    const user = await createUser(database.current.db);
    const { after, stepMs, maxMs } = AUTH_LIMITS.signInSlowdown;
    // Real wrong passwords from several clients, then the rest of a spread attack recorded directly.
    for (let i = 0; i < 3; i++) expect((await signIn(user.email, `spread-${i}`)).status).toBe(401);
    expect(delays).toEqual([]);
    for (let i = 3; i < after + 1; i++) await recordSignInFailure(user.email);
    expect(await signInDelayMs(user.email)).toBe(stepMs);
    for (let i = 0; i < 100; i++) await recordSignInFailure(user.email);
    expect(await signInDelayMs(user.email)).toBe(maxMs);
    // The owner, from their own client, waits a little and is let in.
    const owner = await signIn(user.email, user.password);
    expect(owner.status).toBe(302);
    expect(delays).toEqual([maxMs]);
  });

  it("start afresh for a client on an address after its successful sign-in", async () => {
    const user = await createUser(database.current.db);
    const ip = freshIp();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < AUTH_LIMITS.signInPerPair.limit - 1; i++) {
        expect((await signIn(user.email, "wrong", { ip })).status).toBe(401);
      }
      expect((await signIn(user.email, user.password, { ip })).status).toBe(302);
    }
  });

  it("refuse one client trying many addresses, and only that client", async () => {
    const ip = freshIp();
    for (let i = 0; i < AUTH_LIMITS.signInPerClient.limit; i++) {
      expect((await signIn(`spray-${i}@example.com`, "password", { ip })).status).toBe(401);
    }
    expect((await signIn("spray-last@example.com", "password", { ip })).status).toBe(429);
    expect((await signIn("spray-last@example.com", "password", { ip: freshIp() })).status).toBe(401);
  }, 120_000); // ~20 scrypt hashes: slow on a shared 2-core machine

  it("add no rows for the addresses a refused client goes on trying", async () => {
    const ip = freshIp();
    for (let i = 0; i < AUTH_LIMITS.signInPerClient.limit; i++) {
      expect((await signIn(`flood-${i}@example.com`, "password", { ip })).status).toBe(401);
    }
    const rows = async () => (await database.current.db.selectFrom("rate_limits").select("key").execute()).length;
    const before = await rows();
    for (let i = 0; i < 30; i++) {
      expect((await signIn(`flood-more-${i}@example.com`, "password", { ip })).status).toBe(429);
    }
    expect(await rows()).toBe(before);
  });

  it("do not count a client's successful sign-ins", async () => {
    const user = await createUser(database.current.db);
    const ip = freshIp();
    for (let i = 0; i < AUTH_LIMITS.signInPerClient.limit + 2; i++) {
      expect((await signIn(user.email, user.password, { ip })).status).toBe(302);
    }
  }, 120_000); // ~20 scrypt hashes: slow on a shared 2-core machine

  it("limit sign-ups per client", async () => {
    const ip = freshIp();
    for (let i = 0; i < AUTH_LIMITS.signUpPerClient.limit; i++) {
      expect((await signUp({ fullName: "Bot", email: `bot-${i}@example.com`, password: "123456" }, ip)).status).toBe(
        302,
      );
    }
    const limited = await signUp({ fullName: "Bot", email: "bot-last@example.com", password: "123456" }, ip);
    expect(limited.status).toBe(429);
    const body = await limited.json();
    expect(body.toast).toEqual({
      message: "Sign up failed",
      description: expect.stringMatching(/^Too many attempts\. Please wait \d+ minutes and try again\.$/),
    });
    expect(await usersWithEmail("bot-last@example.com")).toHaveLength(0);
  });
});

describe("a burst of password checks beyond a few seconds' wait (decision 055)", () => {
  afterEach(() => setAverageHashMsForTests(100));

  it("answers sign-in and sign-up at once with 429 'busy' and Retry-After; nothing stored, nothing counted", async () => {
    const user = await createUser(database.current.db);
    const ip = freshIp();
    // Each hash looks like it takes 10 s: the next one would wait past the limit.
    setAverageHashMsForTests(10_000);
    const busy = await signIn(user.email, user.password, { ip });
    expect(busy.status).toBe(429);
    expect(Number(busy.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await busy.json();
    expect(body.toast).toEqual({ message: "Login failed", description: BUSY_MESSAGE });
    expect(setCookie(busy, "__session")).toBeUndefined();
    const email = `busy-${ipCounter}@example.com`;
    const refusedSignUp = await signUp({ fullName: "Busy Person", email, password: "a-long-password" }, ip);
    expect(refusedSignUp.status).toBe(429);
    expect(await usersWithEmail(email)).toEqual([]);
    // Turned away, not tried: the client still has all its sign-in attempts.
    const rows = await database.current.db.selectFrom("rate_limits").select(["key", "hits"]).execute();
    const signInRows = rows.filter((row) => row.key.startsWith("signin:") && row.key.includes(ip));
    expect(signInRows.length).toBeGreaterThan(0);
    expect(signInRows.map((row) => row.hits)).toEqual(signInRows.map(() => 0));

    setAverageHashMsForTests(100);
    const signedIn = await signIn(user.email, user.password, { ip });
    expect(signedIn.status).toBe(302);
    expect(withSession(signedIn)).toMatch(/^__session=/);
  });
});

describe("logs", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    process.env.LOG_LEVEL = "silent";
    resetEnvCache();
  });

  it("never contain a password, a hash or a session id", async () => {
    process.env.LOG_LEVEL = "debug";
    resetEnvCache();
    const lines: string[] = [];
    const capture = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    for (const method of ["log", "info", "warn", "error", "debug"] as const)
      vi.spyOn(console, method).mockImplementation(capture);

    const password = "log-check-password-9f8e7d";
    await signUp({ fullName: "Logan", email: "logan@example.com", password });
    const ok = await signIn("logan@example.com", password);
    await signIn("logan@example.com", `${password}-wrong`);
    await signUp({ fullName: "Logan", email: "logan@example.com", password });
    const signedInSessionId = (await getSession(get("/", { cookie: withSession(ok) }))).id;
    expect(signedInSessionId).toBeTruthy();
    await settle(() =>
      logoutAction({ request: formPost("/logout", {}, { cookie: withSession(ok) }), params: {}, context: {} }),
    );

    expect(lines.some((l) => l.includes("auth.signin"))).toBe(true);
    expect(lines.some((l) => l.includes("auth.signin.failed"))).toBe(true);
    const [user] = await usersWithEmail("logan@example.com");
    const sessionIds = [
      signedInSessionId,
      ...(await database.current.db.selectFrom("sessions").select("id").execute()).map((s) => s.id),
    ];
    const cookieValue = withSession(ok).split("=")[1];
    const secrets = [password, user.password_hash!, user.password_hash!.split("$").at(-1)!, cookieValue, ...sessionIds];
    for (const line of lines) {
      for (const secret of secrets) expect(line).not.toContain(secret);
      expect(line).not.toMatch(/scrypt\$/);
    }
  });
});

describe("coming back to the page asked for (a link in an e-mail)", () => {
  const VISIT = "/customer-dashboard/visits/0b6f6c1e-7d3a-4b8e-9a43-5d1c2f0e9a11?from=email";
  const remembered = `/auth?redirectTo=${encodeURIComponent(VISIT)}`;

  it("the signed-out reading a portal page are sent to /auth with that page; a post is not remembered", async () => {
    expect((await settle(() => requireUser(get(VISIT), {}))).headers.get("Location")).toBe(remembered);
    const post = formPost(VISIT, { intent: "x" }, { ip: freshIp() });
    expect((await settle(() => requireUser(post, {}))).headers.get("Location")).toBe("/auth");
  });

  it("/auth carries the page into its form, and signing in lands on it", async () => {
    const user = await createUser(database.current.db);
    const page = await open(get(remembered));
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ returnPath: VISIT });
    const response = await run(
      formPost(
        "/auth",
        { intent: "signin", email: user.email, password: user.password, redirectTo: VISIT },
        { ip: freshIp() },
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(VISIT);
    expect(await toastOf(response)).toMatchObject({ type: "success", message: "Welcome back!" });
    // Already signed in, the same link on /auth goes straight there.
    const again = await open(get(remembered, { cookie: withSession(response) }));
    expect(again.headers.get("Location")).toBe(VISIT);
  });

  it("through the second step too", async () => {
    const admin = await createUser(database.current.db, { admin: true });
    const firstStep = await run(
      formPost(
        "/auth",
        { intent: "signin", email: admin.email, password: admin.password, redirectTo: "/admin-dashboard/visits/today" },
        { ip: freshIp() },
      ),
    );
    expect(firstStep.headers.get("Location")).toBe("/auth/verify?redirectTo=%2Fadmin-dashboard%2Fvisits%2Ftoday");
    const done = await completeSecondStep(firstStep, admin.totpSecret!, {
      fields: { redirectTo: "/admin-dashboard/visits/today" },
    });
    expect(done.headers.get("Location")).toBe("/admin-dashboard/visits/today");
  });

  it.each([
    ["another site", "https://evil.example/phish"],
    ["a protocol-relative address", "//evil.example"],
    ["a backslash host", "/\\evil.example"],
    ["the sign-in page itself", "/auth/verify"],
  ])("never sends anyone to %s: the dashboard instead", async (_label, target) => {
    const user = await createUser(database.current.db);
    const page = await open(get(`/auth?redirectTo=${encodeURIComponent(target)}`));
    expect(await page.json()).toMatchObject({ returnPath: null });
    const response = await run(
      formPost(
        "/auth",
        { intent: "signin", email: user.email, password: user.password, redirectTo: target },
        { ip: freshIp() },
      ),
    );
    expect(response.headers.get("Location")).toBe("/customer-dashboard");
  });
});
