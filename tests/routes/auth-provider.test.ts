import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { completeSecondStep, formPost, get, ORIGIN, settle, setCookie, toastOf } from "../helpers/auth-requests";
import { createUser, sessionCookieFor } from "../helpers/factories";
import type { OAuthProvider } from "../../db/schema";
import { getOptionalUser } from "~/features/accounts/auth.server";
import { resetAuthenticatorForTests } from "~/features/accounts/authenticator.server";
import { resetEnvCache } from "~/utils/env.server";
import { action as startAction, loader as startLoader } from "~/routes/auth_.$provider";
import { loader as callbackLoader } from "~/routes/auth_.$provider_.callback";

const database = useAppDatabase();
let ipCounter = 0;
/** Each round trip from its own address, so the per-client start limit never meets. */
const freshIp = () => `198.51.100.${++ipCounter}`;
const server = new OAuth2Server();
let providerOrigin = "";

const PROVIDER_ENV = [
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
  "FACEBOOK_CLIENT_ID",
  "FACEBOOK_CLIENT_SECRET",
] as const;

function configureProviders(on: boolean) {
  for (const name of PROVIDER_ENV) {
    if (on) process.env[name] = `test-${name.toLowerCase()}`;
    else delete process.env[name];
  }
  resetEnvCache();
  const endpoints = {
    authorizationURL: `${providerOrigin}/authorize`,
    tokenURL: `${providerOrigin}/token`,
    userInfoURL: `${providerOrigin}/userinfo`,
  };
  resetAuthenticatorForTests({ google: endpoints, facebook: endpoints });
}

beforeAll(async () => {
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const address = server.address();
  providerOrigin = `http://127.0.0.1:${address.port}`;
  configureProviders(true);
});

afterAll(async () => {
  await server.stop();
  configureProviders(false);
  resetAuthenticatorForTests();
});

/** The profile the provider's user-info endpoint answers with on the next round trip. */
function nextProfile(body: Record<string, unknown>) {
  server.service.once("beforeUserinfo", (response) => {
    response.body = body;
  });
}

const googleProfile = (sub: string, email: string | undefined, extra: Record<string, unknown> = {}) => ({
  sub,
  email,
  email_verified: true,
  name: "Gina Google",
  given_name: "Gina",
  family_name: "Google",
  picture: "https://example.com/gina.png",
  ...extra,
});

// Shaped like the Graph API's /me?fields=id,email,name,first_name,middle_name,last_name,picture
const facebookProfile = (id: string, email: string | undefined) => ({
  id,
  name: "Finn Facebook",
  first_name: "Finn",
  last_name: "Facebook",
  ...(email ? { email } : {}),
  picture: { data: { height: 50, width: 50, is_silhouette: false, url: "https://example.com/finn.jpg" } },
});

/**
 * The whole browser round trip: the button's POST, the provider's authorize page (which
 * answers at once with a redirect carrying code and state), then the callback.
 */
async function roundTrip(provider: OAuthProvider, options: { cookie?: string } = {}) {
  const start = await settle(() =>
    startAction({
      request: formPost(`/auth/${provider}`, {}, { cookie: options.cookie, ip: freshIp() }),
      params: { provider },
      context: {},
    }),
  );
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("Location")!);
  expect(authorize.origin).toBe(providerOrigin);
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/${provider}/callback`);
  const stateCookie = setCookie(start, "__session")!;
  expect(stateCookie).toBeTruthy();

  const consent = await fetch(authorize, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const callback = consent.headers.get("Location")!;
  expect(callback.startsWith(`${ORIGIN}/auth/${provider}/callback?`)).toBe(true);

  const done = await settle(() =>
    callbackLoader({ request: get(callback, { cookie: stateCookie }), params: { provider }, context: {} }),
  );
  return { done, stateCookie, callback };
}

async function signedInUser(response: Response) {
  const cookie = setCookie(response, "__session");
  return cookie ? getOptionalUser(get("/", { cookie }), {}) : null;
}

describe.each(["google", "facebook"] as const)("%s sign-in", (provider) => {
  const name = provider === "google" ? "Google" : "Facebook";
  const profile = (id: string, email?: string) =>
    provider === "google" ? googleProfile(id, email) : facebookProfile(id, email);

  it("creates the user, profile and link on the first visit, and signs in", async () => {
    const email = `new.${provider}@example.com`;
    nextProfile(profile(`${provider}-new-1`, email));
    const { done, stateCookie } = await roundTrip(provider);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/customer-dashboard");
    expect(await toastOf(done)).toMatchObject({
      type: "success",
      message: "Welcome back!",
      description: "You've been logged in successfully.",
    });

    const user = await signedInUser(done);
    expect(user?.email).toBe(email);
    expect(user?.fullName).toBe(provider === "google" ? "Gina Google" : "Finn Facebook");
    const row = await database.current.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", user!.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    const links = await database.current.db
      .selectFrom("oauth_accounts")
      .selectAll()
      .where("user_id", "=", user!.id)
      .execute();
    expect(links).toMatchObject([{ provider, provider_user_id: `${provider}-new-1` }]);
    // The anonymous session that held the OAuth state is gone; the sign-in got a new id.
    expect(setCookie(done, "__session")).not.toBe(stateCookie);
    expect(await getOptionalUser(get("/", { cookie: stateCookie }), {})).toBeNull();

    // The next visit finds the same user through the link, whatever address the provider sends.
    nextProfile(profile(`${provider}-new-1`, `changed.${provider}@example.com`));
    const again = await roundTrip(provider);
    expect((await signedInUser(again.done))?.id).toBe(user!.id);
  });

  it("links an existing account with the same (verified) address, in any case", async () => {
    const existing = await createUser(database.current.db, { email: `Existing.${provider}@Example.com`, admin: true });
    nextProfile(profile(`${provider}-existing-1`, `existing.${provider}@example.com`));
    const { done: firstStep } = await roundTrip(provider);
    // An admin has two-step on: the provider is the first step, the code the second.
    expect(firstStep.headers.get("Location")).toBe("/auth/verify");
    expect(await signedInUser(firstStep)).toBeNull();
    const done = await completeSecondStep(firstStep, existing.totpSecret!);
    expect(done.headers.get("Location")).toBe("/admin-dashboard");
    expect((await signedInUser(done))?.id).toBe(existing.id);
    const links = await database.current.db
      .selectFrom("oauth_accounts")
      .select("provider_user_id")
      .where("user_id", "=", existing.id)
      .execute();
    expect(links).toEqual([{ provider_user_id: `${provider}-existing-1` }]);
    const users = await database.current.db
      .selectFrom("users")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", `existing.${provider}@example.com`))
      .execute();
    expect(users).toHaveLength(1);
  });

  it(`fails with '${name} sign in failed' when the provider shares no e-mail address`, async () => {
    nextProfile(profile(`${provider}-no-email`, undefined));
    const { done } = await roundTrip(provider);
    expect(done.headers.get("Location")).toBe("/auth");
    expect(setCookie(done, "__session")).toBeUndefined();
    expect(await toastOf(done)).toMatchObject({
      type: "error",
      message: `${name} sign in failed`,
      description: `Your ${name} account did not share an e-mail address. Please use e-mail to sign up.`,
    });
  });

  it("fails with the provider's error code when the token exchange is refused", async () => {
    server.service.once("beforeResponse", (response) => {
      response.body = { error: "invalid_grant", error_description: "Code <script>expired</script>" };
      response.statusCode = 400;
    });
    const { done } = await roundTrip(provider);
    expect(done.headers.get("Location")).toBe("/auth");
    const toast = await toastOf(done);
    expect(toast?.message).toBe(`${name} sign in failed`);
    expect(toast?.description).toBe(`${name} refused the sign-in (invalid_grant). Please try again or use e-mail.`);
  });

  it("fails when the state does not match the session (a forged or replayed callback)", async () => {
    nextProfile(profile(`${provider}-state`, `state.${provider}@example.com`));
    const { callback } = await roundTrip(provider);
    // The same callback URL again, from a browser without the state session:
    const replay = await settle(() => callbackLoader({ request: get(callback), params: { provider }, context: {} }));
    expect(replay.headers.get("Location")).toBe("/auth");
    expect((await toastOf(replay))?.description).toBe(
      "The sign-in expired or was started in another browser. Please try again.",
    );
  });

  it("explains a cancelled consent without echoing the provider's text", async () => {
    const url = `${ORIGIN}/auth/${provider}/callback?error=access_denied&error_description=Call+555-0100+now&state=x`;
    const response = await settle(() => callbackLoader({ request: get(url), params: { provider }, context: {} }));
    const toast = await toastOf(response);
    expect(toast?.message).toBe(`${name} sign in failed`);
    expect(toast?.description).toBe(`Sign-in was cancelled at ${name}. Please try again or use e-mail.`);
  });
});

describe("account pre-hijacking", () => {
  it("an impostor signs up with the owner's address; the owner signs in with Google: the impostor is out", async () => {
    const email = "owner.prehijack@example.com";
    const impostor = await createUser(database.current.db, { email, password: "impostor-pass", verified: false });
    const impostorSession = await sessionCookieFor(impostor.id);
    // The impostor even turned on two-step for "their" account.
    await database.current.db
      .insertInto("user_totp")
      .values({ user_id: impostor.id, secret: "IMPOSTORSECRETAAIMPOSTORSECRETAA", enabled_at: new Date() })
      .execute();

    nextProfile(googleProfile("google-real-owner", email));
    const { done } = await roundTrip("google");
    // The provider proved the address: the owner is in at once (no impostor's second step).
    expect(done.headers.get("Location")).toBe("/customer-dashboard");
    const owner = await signedInUser(done);
    expect(owner?.id).toBe(impostor.id);
    expect(owner?.emailVerified).toBe(true);
    expect(owner?.twoStepEnabled).toBe(false);

    const row = await database.current.db
      .selectFrom("users")
      .select(["password_hash", "email_verified_at"])
      .where("id", "=", impostor.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    expect(row.email_verified_at).toBeInstanceOf(Date);
    // The impostor's session is over, and their password no longer signs in.
    expect(await getOptionalUser(get("/", { cookie: impostorSession }), {})).toBeNull();
    const { action: signInAction } = await import("~/routes/auth");
    const retry = await settle(() =>
      signInAction({
        request: formPost("/auth", { intent: "signin", email, password: "impostor-pass" }, { ip: "198.51.100.77" }),
        params: {},
        context: {},
      }),
    );
    expect(retry.status).toBe(401);
    expect(await database.current.db.selectFrom("sessions").where("user_id", "=", impostor.id).execute()).toHaveLength(
      1,
    );
  });

  it("a verified account keeps its password and sessions when Google is linked", async () => {
    const user = await createUser(database.current.db, { email: "verified.owner@example.com" });
    const session = await sessionCookieFor(user.id);
    nextProfile(googleProfile("google-verified-owner", user.email));
    const { done } = await roundTrip("google");
    expect((await signedInUser(done))?.id).toBe(user.id);
    expect((await getOptionalUser(get("/", { cookie: session }), {}))?.id).toBe(user.id);
    const row = await database.current.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
  });
});

describe("Google specifics", () => {
  it("never matches an existing account on an address Google has not verified", async () => {
    const existing = await createUser(database.current.db, { email: "victim@example.com" });
    nextProfile(googleProfile("google-attacker", "victim@example.com", { email_verified: false }));
    const { done } = await roundTrip("google");
    expect(done.headers.get("Location")).toBe("/auth");
    expect((await toastOf(done))?.description).toBe(
      "Your Google e-mail address is not verified. Please use e-mail to sign in.",
    );
    const links = await database.current.db
      .selectFrom("oauth_accounts")
      .selectAll()
      .where("user_id", "=", existing.id)
      .execute();
    expect(links).toEqual([]);
  });
});

describe("the provider routes", () => {
  it("send someone already signed in to their dashboard instead of the provider", async () => {
    const user = await createUser(database.current.db);
    const cookie = await sessionCookieFor(user.id);
    const response = await settle(() =>
      startAction({ request: formPost("/auth/google", {}, { cookie }), params: { provider: "google" }, context: {} }),
    );
    expect(response.headers.get("Location")).toBe("/customer-dashboard");
  });

  it("answer a GET with a redirect to /auth and an unknown provider with 404", async () => {
    expect((await settle(() => startLoader())).headers.get("Location")).toBe("/auth");
    const unknown = await settle(() =>
      startAction({ request: formPost("/auth/twitter", {}), params: { provider: "twitter" }, context: {} }),
    );
    expect(unknown.status).toBe(404);
    const unknownCallback = await settle(() =>
      callbackLoader({ request: get("/auth/twitter/callback"), params: { provider: "twitter" }, context: {} }),
    );
    expect(unknownCallback.status).toBe(404);
  });

  it("explain that a provider is not set up yet when its id and secret are missing", async () => {
    configureProviders(false);
    try {
      for (const [provider, name] of [
        ["google", "Google"],
        ["facebook", "Facebook"],
      ] as const) {
        const response = await settle(() =>
          startAction({ request: formPost(`/auth/${provider}`, {}), params: { provider }, context: {} }),
        );
        expect(response.headers.get("Location")).toBe("/auth");
        expect(await toastOf(response)).toMatchObject({
          type: "error",
          message: `${name} sign in failed`,
          description: `${name} sign-in is not set up yet. Please use e-mail.`,
        });
        const callback = await settle(() =>
          callbackLoader({
            request: get(`/auth/${provider}/callback?code=x&state=y`),
            params: { provider },
            context: {},
          }),
        );
        expect((await toastOf(callback))?.message).toBe(`${name} sign in failed`);
      }
    } finally {
      configureProviders(true);
    }
  });
});

describe("OAuth starts are bounded", () => {
  it("stores the state in a session that lives 10 minutes", async () => {
    const start = await settle(() =>
      startAction({
        request: formPost("/auth/google", {}, { ip: "192.0.2.10" }),
        params: { provider: "google" },
        context: {},
      }),
    );
    expect(start.status).toBe(302);
    const rows = await database.current.db
      .selectFrom("sessions")
      .select(["expires_at", "user_id"])
      .where("user_id", "is", null)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(new Date(row.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000 + 1000);
    }
  });

  it("refuses a client's 11th start in 10 minutes, storing no session for it", async () => {
    const ip = "192.0.2.77";
    const start = () =>
      settle(() =>
        startAction({ request: formPost("/auth/facebook", {}, { ip }), params: { provider: "facebook" }, context: {} }),
      );
    for (let i = 0; i < 10; i++) expect((await start()).headers.get("Location")).toMatch(/^http/);
    const sessionsBefore = await database.current.db.selectFrom("sessions").select("id").execute();
    const limitsBefore = await database.current.db.selectFrom("rate_limits").select("key").execute();
    const refused = await start();
    expect(refused.headers.get("Location")).toBe("/auth");
    expect(await toastOf(refused)).toMatchObject({
      message: "Facebook sign in failed",
      description: expect.stringMatching(/^Too many attempts/),
    });
    expect(await database.current.db.selectFrom("sessions").select("id").execute()).toHaveLength(sessionsBefore.length);
    expect(await database.current.db.selectFrom("rate_limits").select("key").execute()).toHaveLength(
      limitsBefore.length,
    );
  });
});
