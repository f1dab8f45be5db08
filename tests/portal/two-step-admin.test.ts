import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { completeSecondStep, formPost, settle, setCookie } from "../helpers/auth-requests";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { totpCode } from "../helpers/totp";
import * as adminIndex from "~/routes/admin-dashboard._index";
import * as adminLayout from "~/routes/admin-dashboard";
import * as adminQuote from "~/routes/admin-dashboard.quotes.$quoteId";
import * as adminQuotes from "~/routes/admin-dashboard.quotes";
import * as security from "~/routes/account.security";
import { action as signInAction } from "~/routes/auth";

/** Admins must use two-step sign-in: every admin loader and action, with and without it. */
const database = useAppDatabase();
const db = () => database.current.db;
const QUOTE_ID = "00000000-0000-4000-8000-000000000001";

const ADMIN_LOADERS = [
  ["the admin layout", adminLayout.loader, "/admin-dashboard"],
  ["the admin dashboard", adminIndex.loader, "/admin-dashboard?index"],
  ["the quote list", adminQuotes.loader, "/admin-dashboard/quotes"],
  ["a quote", adminQuote.loader, `/admin-dashboard/quotes/${QUOTE_ID}`],
] as const;

async function visitCount() {
  return (await db().selectFrom("services").select("id").execute()).length;
}

async function createVisitAs(cookie: string, customer: TestUser) {
  return callRoute(adminIndex.action, "/admin-dashboard?index&tab=create", {
    cookie,
    form: { customerId: customer.id, serviceType: "Desert Dash", serviceDate: "2025-05-01T09:00", notes: "" },
  });
}

describe("an admin without two-step", () => {
  it("is sent to /account/security by every admin loader and action, and nothing is written", async () => {
    const admin = await createUser(db(), { admin: true, twoStep: false });
    const customer = await createUser(db());
    const cookie = await sessionCookieFor(admin.id);
    for (const [, loader, url] of ADMIN_LOADERS) {
      const response = await callRoute(loader, url, { cookie, params: { quoteId: QUOTE_ID } });
      expect(response.status, url).toBe(302);
      expect(locationOf(response), url).toBe("/account/security");
    }
    const before = await visitCount();
    const refused = await createVisitAs(cookie, customer);
    expect(locationOf(refused)).toBe("/account/security");
    expect(await toastOf(refused)).toMatchObject({ message: "Two-step verification required" });
    const quote = await callRoute(adminQuote.action, `/admin-dashboard/quotes/${QUOTE_ID}`, {
      cookie,
      params: { quoteId: QUOTE_ID },
      form: { status: "won" },
    });
    expect(locationOf(quote)).toBe("/account/security");
    expect(await visitCount()).toBe(before);
  });

  it("signs in to /account/security, turns two-step on there, and then opens the admin pages", async () => {
    const admin = await createUser(db(), { admin: true, twoStep: false });
    const customer = await createUser(db());
    const signInFrom = async (ip: string) => {
      const signedIn = await settle(() =>
        signInAction({
          request: formPost("/auth", { intent: "signin", email: admin.email, password: admin.password }, { ip }),
          params: {},
          context: {},
        }),
      );
      expect(signedIn.headers.get("Location")).toBe("/account/security");
      return setCookie(signedIn, "__session")!;
    };
    const cookie = await signInFrom("192.0.2.201");
    // Someone else with the password, signed in before two-step is on.
    const early = await signInFrom("192.0.2.211");

    const unset = await callRoute(security.loader, "/account/security", { cookie });
    expect((await unset.json()).setup).toBeNull();
    expect((await callRoute(security.action, "/account/security", { cookie, form: { intent: "setup" } })).status).toBe(
      302,
    );
    const page = await callRoute(security.loader, "/account/security", { cookie });
    const { setup, requiredForAdmin, enabled } = await page.json();
    expect({ requiredForAdmin, enabled }).toEqual({ requiredForAdmin: true, enabled: false });
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    // The key belongs to the session that asked for it.
    expect((await (await callRoute(security.loader, "/account/security", { cookie: early })).json()).setup).toBeNull();

    const wrong = await callRoute(security.action, "/account/security", {
      cookie,
      form: { intent: "enable", code: "000000" },
    });
    expect(wrong.status).toBe(400);
    expect(locationOf(await createVisitAs(cookie, customer))).toBe("/account/security");

    const on = await callRoute(security.action, "/account/security", {
      cookie,
      form: { intent: "enable", code: totpCode(setup.secret) },
    });
    expect(on.status).toBe(200);
    expect((await on.json()).recoveryCodes).toHaveLength(10);

    const before = await visitCount();
    const created = await createVisitAs(cookie, customer);
    expect(locationOf(created)).not.toBe("/account/security");
    expect(await visitCount()).toBe(before + 1);
    for (const [, loader, url] of ADMIN_LOADERS.slice(0, 3)) {
      expect((await callRoute(loader, url, { cookie })).status, url).toBe(200);
    }
    // The early session ended with the enrolment: every admin loader and action sends it to sign in.
    for (const [, loader, url] of ADMIN_LOADERS) {
      const refused = await callRoute(loader, url, { cookie: early, params: { quoteId: QUOTE_ID } });
      expect(refused.status, url).toBe(302);
      expect(locationOf(refused), url).toMatch(/^\/auth/);
    }
    const count = await visitCount();
    expect(locationOf(await createVisitAs(early, customer))).toBe("/auth");
    expect(await visitCount()).toBe(count);
  });

  it("a session kept from before enrolment (never passed a second step) is refused, and nothing is written", async () => {
    const admin = await createUser(db(), { admin: true });
    const customer = await createUser(db());
    const cookie = await sessionCookieFor(admin.id, { secondStep: false });
    for (const [, loader, url] of ADMIN_LOADERS) {
      const refused = await callRoute(loader, url, { cookie, params: { quoteId: QUOTE_ID } });
      expect(refused.status, url).toBe(302);
      expect(locationOf(refused), url).toMatch(/^\/auth/);
    }
    const count = await visitCount();
    expect(locationOf(await createVisitAs(await sessionCookieFor(admin.id, { secondStep: false }), customer))).toBe(
      "/auth",
    );
    expect(await visitCount()).toBe(count);
  });
});

describe("an admin with two-step", () => {
  it("opens every admin page after password and code", async () => {
    const admin = await createUser(db(), { admin: true });
    const firstStep = await settle(() =>
      signInAction({
        request: formPost(
          "/auth",
          { intent: "signin", email: admin.email, password: admin.password },
          { ip: "192.0.2.202" },
        ),
        params: {},
        context: {},
      }),
    );
    const done = await completeSecondStep(firstStep, admin.totpSecret!);
    expect(done.headers.get("Location")).toBe("/admin-dashboard");
    const cookie = setCookie(done, "__session")!;
    for (const [, loader, url] of ADMIN_LOADERS.slice(0, 3)) {
      expect((await callRoute(loader, url, { cookie })).status, url).toBe(200);
    }
  });

  it("'Sign out of all other devices' ends every other session, not this one", async () => {
    const user = await createUser(db(), { admin: true });
    const here = await sessionCookieFor(user.id);
    await sessionCookieFor(user.id);
    await sessionCookieFor(user.id);
    const response = await callRoute(security.action, "/account/security", {
      cookie: here,
      form: { intent: "sign-out-others" },
    });
    expect(response.status).toBe(200);
    const left = await db().selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(left).toHaveLength(1);
    expect((await callRoute(adminLayout.loader, "/admin-dashboard", { cookie: here })).status).toBe(200);
  });

  it("a customer may turn two-step on and off; off needs a current code", async () => {
    const customer = await createUser(db());
    const cookie = await sessionCookieFor(customer.id);
    await callRoute(security.action, "/account/security", { cookie, form: { intent: "setup" } });
    const { setup } = await (await callRoute(security.loader, "/account/security", { cookie })).json();
    const code = totpCode(setup.secret);
    expect(
      (await callRoute(security.action, "/account/security", { cookie, form: { intent: "enable", code } })).status,
    ).toBe(200);
    const off = await callRoute(security.action, "/account/security", {
      cookie,
      form: { intent: "disable", code: "123456" },
    });
    expect(off.status).toBe(400);
    const state = await (await callRoute(security.loader, "/account/security", { cookie })).json();
    expect(state.enabled).toBe(true);
  });
});

describe("/account/security answers in the forms kit's one shape (Conform's submission.reply())", () => {
  it("a wrong code is the code field's message, never echoed; other refusals are the form's", async () => {
    const customer = await createUser(db(), { twoStep: false });
    const cookie = await sessionCookieFor(customer.id);
    const post = async (form: Record<string, string>) =>
      callRoute(security.action, "/account/security", { cookie, form });

    const early = await post({ intent: "enable", code: "123456" });
    expect(early.status).toBe(400);
    expect((await early.json()).result.error).toEqual({ "": ["Press \u201cSet up two-step\u201d first."] });

    await post({ intent: "setup" });
    const wrong = await post({ intent: "enable", code: "000000" });
    expect(wrong.status).toBe(400);
    const { result } = await wrong.json();
    expect(result.error).toEqual({ code: ["That code is not right. Please try again."] });
    expect(JSON.stringify(result)).not.toContain("000000");

    const unknown = await post({ intent: "self-destruct" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).result.error[""]).toEqual(["Unknown action."]);
    const offWhenOff = await post({ intent: "disable", code: "123456" });
    expect(offWhenOff.status).toBe(409);
    expect((await offWhenOff.json()).result.error[""]).toEqual(["Two-step verification is off."]);
    expect(await db().selectFrom("user_totp").where("user_id", "=", customer.id).execute()).toHaveLength(0);
  });
});
