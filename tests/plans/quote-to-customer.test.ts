import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { formPost, get, settle } from "../helpers/auth-requests";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { weekdayAhead } from "../helpers/plan-days";
import { goodQuote } from "../helpers/quote-form";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { useTestSmtp } from "../helpers/smtp-server";
import {
  INVITE_LINK_PLACEHOLDER,
  SET_PASSWORD_TTL_MS,
  createSetPasswordToken,
} from "~/features/accounts/account-invite.server";
import { getOptionalUser } from "~/features/accounts/auth.server";
import { deliverDueEmails } from "~/features/outbox/outbox.server";
import { verifyPassword } from "~/features/accounts/password.server";
import { isoWeekday } from "~/features/plans/plan-schedule";
import { STATUS_FIXED_MESSAGE } from "~/features/quotes/quote-constants";
import { ALREADY_CONVERTED } from "~/features/quotes/quote-to-customer.server";
import { createQuoteSchema } from "~/features/quotes/quote-schema";
import { addDays, businessToday } from "~/features/visits/visit-dates";
import { createQuoteRequest } from "~/models/quote-request.server";
import { action, loader } from "~/routes/admin-dashboard.quotes.$quoteId";
import { action as setAction, loader as setLoader } from "~/routes/auth_.set-password";
import { resetEnvCache } from "~/utils/env.server";

/**
 * A quote request becomes a customer (issue 25 item 6, decision 096): through the quote page's
 * action and loader, with the invite caught by a real SMTP server and the password set through
 * the link it carries; every refusal leaves every table as it was.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const smtp = useTestSmtp("Swift Scoops <office@example.com>");

let admin: TestUser;
let adminCookie: string;

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin.id);
});

async function storeQuote(overrides: Record<string, string> = {}) {
  const input = createQuoteSchema().parse(goodQuote(overrides));
  const { quote } = await createQuoteRequest({
    ...input,
    outsideServiceArea: false,
    estimateCents: 10400,
    estimateLabel: "$104/month",
    clientKey: null,
  });
  return quote;
}

/** The next Tuesday at least two days ahead (any weekday the test runs on). */
function nextTuesday() {
  let day = weekdayAhead(businessToday(), 2);
  while (isoWeekday(day) !== 2) day = addDays(day, 1);
  return day;
}

type Pairs = [string, string][];

function conversionForm(quote: { name: string; email: string }, overrides: Record<string, string | string[]> = {}) {
  const values: Record<string, string | string[]> = {
    intent: "create-customer",
    fullName: quote.name,
    email: quote.email,
    street: "123 Desert Rose Ln",
    city: "Pahrump",
    zip: "89048",
    cataloguePlanId: "servicePlan.weekly",
    weekdays: ["2"],
    dogCount: "2",
    yardSize: "medium",
    startDate: nextTuesday(),
    notes: "",
    ...overrides,
  };
  return Object.entries(values).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
  );
}

function post(quoteId: string, pairs: Pairs, cookie: string | undefined = adminCookie) {
  return callRoute(action, `/admin-dashboard/quotes/${quoteId}`, {
    cookie,
    params: { quoteId },
    body: new URLSearchParams(pairs).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
}

async function page(quoteId: string, cookie: string | undefined = adminCookie) {
  return callRoute(loader, `/admin-dashboard/quotes/${quoteId}`, { cookie, params: { quoteId } });
}

/** Every table a conversion writes, counted, and the request's own row. */
async function snapshot(quoteId: string) {
  const count = async (
    table:
      | "users"
      | "profiles"
      | "yard_profiles"
      | "customer_plans"
      | "services"
      | "account_tokens"
      | "outbox"
      | "customer_plan_events",
  ) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const tables = [
    "users",
    "profiles",
    "yard_profiles",
    "customer_plans",
    "services",
    "account_tokens",
    "outbox",
    "customer_plan_events",
  ] as const;
  const counts = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)] as const)));
  const quote = await db()
    .selectFrom("quote_requests")
    .select(["status", "customer_id", "converted_at", "customer_existed", "updated_at"])
    .where("id", "=", quoteId)
    .executeTakeFirstOrThrow();
  return { counts, quote };
}

/** How many "Set your password" e-mails are queued (or were sent) to `to`. */
async function invitesTo(to: string) {
  const rows = await db()
    .selectFrom("outbox")
    .select("id")
    .where("kind", "=", "account_invite")
    .where("to_address", "=", to)
    .execute();
  return rows.length;
}

/** The set-password link's token from the last invite mailed to `to`. */
async function inviteToken(to: string, count = 1) {
  // The invitation waits in the outbox (decision 110): the worker's pass sends it.
  await deliverDueEmails();
  const messages = await smtp.current.waitForMessages(count);
  const mail = messages.filter((m) => m.subject === "Set your password" && JSON.stringify(m.to).includes(to)).at(-1);
  expect(mail).toBeTruthy();
  expect(mail!.text).toContain("within 7 days");
  const link = /(http\S+\/auth\/set-password\?token=\S+)/.exec(mail!.text ?? "")?.[1];
  expect(link).toBeTruthy();
  return new URL(link!).searchParams.get("token")!;
}

const openLink = (token: string) =>
  settle(() =>
    setLoader({ request: get(`/auth/set-password?token=${encodeURIComponent(token)}`), params: {}, context: {} }),
  );
const setPassword = (token: string, password: string) =>
  settle(() => setAction({ request: formPost("/auth/set-password", { token, password }), params: {}, context: {} }));

describe("Create customer and plan", () => {
  it("pre-fills the form from the request, its service mapped to the catalogue plan", async () => {
    const quote = await storeQuote({ dogs: "4+", yardSize: "large", service: "twice-weekly" });
    const response = await page(quote.id);
    expect(response.status).toBe(200);
    const { conversion } = await response.json();
    expect(conversion.state).toBe("open");
    expect(conversion.defaults).toMatchObject({
      fullName: quote.name,
      email: quote.email,
      street: quote.address,
      zip: "89048",
      cataloguePlanId: "servicePlan.twice-weekly",
      dogCount: "4",
      yardSize: "large",
      weekdays: [],
    });
    expect(conversion.catalogue.every((plan: { visitsPerWeek: number | null }) => plan.visitsPerWeek !== null)).toBe(
      true,
    );
    // A one-time service has no plan to pre-fill: the admin picks one.
    const oneTime = await storeQuote({ service: "dash" });
    expect((await (await page(oneTime.id)).json()).conversion.defaults.cataloguePlanId).toBe("");
  });

  it("makes the account, yard and Tuesday plan, mails the set-password link, and the link sets the password once", async () => {
    const quote = await storeQuote();
    const before = await snapshot(quote.id);
    const response = await post(quote.id, conversionForm(quote));
    expect(response.status).toBe(302);
    expect(locationOf(response)).toBe(`/admin-dashboard/quotes/${quote.id}`);
    expect((await toastOf(response))?.description).toBe(
      `Customer created. A "Set your password" e-mail is on its way to ${quote.email}.`,
    );

    const user = await db().selectFrom("users").selectAll().where("email", "=", quote.email).executeTakeFirstOrThrow();
    expect(user.password_hash).toBeNull();
    expect(user.email_verified_at).toBeNull();
    const yard = await db()
      .selectFrom("yard_profiles")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(yard).toMatchObject({ street: "123 Desert Rose Ln", city: "Pahrump", zip: "89048", dog_count: 2 });
    const plans = await db().selectFrom("customer_plans").selectAll().where("customer_id", "=", user.id).execute();
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({
      catalogue_plan_id: "servicePlan.weekly",
      weekdays: [2],
      start_date: nextTuesday(),
    });
    const visits = await db()
      .selectFrom("services")
      .select("service_date")
      .where("plan_id", "=", plans[0].id)
      .execute();
    expect(visits.length).toBeGreaterThan(0);
    const after = await snapshot(quote.id);
    expect(after.quote).toMatchObject({ status: "won", customer_id: user.id, customer_existed: false });
    // One account, one profile, one yard, one plan, one queued invitation: nothing else. Its
    // link (a token) is made when it is sent (decision 110).
    for (const table of ["users", "profiles", "yard_profiles", "customer_plans"] as const) {
      expect(after.counts[table] - before.counts[table]).toBe(1);
    }
    expect(await invitesTo(quote.email)).toBe(1);
    expect(after.counts.account_tokens).toBe(before.counts.account_tokens);

    // The page says what the request became, and offers the form no more.
    const { conversion } = await (await page(quote.id)).json();
    expect(conversion).toMatchObject({
      state: "converted",
      existed: false,
      customer: { id: user.id, email: quote.email, name: quote.name },
    });

    const token = await inviteToken(quote.email);
    // Stored hashed, like the reset link: the token is in no table as text.
    const tokenRow = await db()
      .selectFrom("account_tokens")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(tokenRow).toMatchObject({ purpose: "set-password", used_at: null });
    expect(tokenRow.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenRow.token_hash).not.toContain(token);
    expect(tokenRow.expires_at.getTime() - Date.now()).toBeGreaterThan(SET_PASSWORD_TTL_MS - 60_000);
    expect(tokenRow.expires_at.getTime() - Date.now()).toBeLessThanOrEqual(SET_PASSWORD_TTL_MS);
    const outbox = await db().selectFrom("outbox").select(["text_body", "subject"]).execute();
    expect(outbox.some((row) => row.text_body.includes(token))).toBe(false);

    const opened = await openLink(token);
    expect(opened.status).toBe(200);
    expect((await opened.json()).token).toBe(token);

    // Too short: refused, the link still live.
    expect((await setPassword(token, "123")).status).toBe(400);
    expect((await openLink(token)).status).toBe(200);

    const set = await setPassword(token, "a brand new password");
    expect(set.status).toBe(302);
    expect(locationOf(set)).toBe("/customer-dashboard");
    const cookie = (set.headers.get("Set-Cookie") ?? "").split(";")[0];
    const signedIn = await getOptionalUser(new Request("http://localhost/", { headers: { Cookie: cookie } }), {});
    expect(signedIn?.id).toBe(user.id);
    const updated = await db().selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(updated.email_verified_at).not.toBeNull();
    expect(await verifyPassword("a brand new password", updated.password_hash!)).toBe(true);

    // The second time: refused, and the password stays.
    expect((await openLink(token)).status).toBe(410);
    const again = await setPassword(token, "another password here");
    expect(again.status).toBe(410);
    expect((await again.json()).expired).toBe(true);
    const still = await db()
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(still.password_hash).toBe(updated.password_hash);
  });

  it("refuses a link older than 7 days (fixed clock), and takes one a minute younger", async () => {
    const customer = await createUser(db(), { verified: false });
    await db().updateTable("users").set({ password_hash: null }).where("id", "=", customer.id).execute();
    const old = await createSetPasswordToken(db(), customer.id, new Date(Date.now() - SET_PASSWORD_TTL_MS - 60_000));
    expect((await openLink(old)).status).toBe(410);
    expect((await setPassword(old, "a brand new password")).status).toBe(410);
    const row = await db()
      .selectFrom("users")
      .select(["password_hash", "email_verified_at"])
      .where("id", "=", customer.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ password_hash: null, email_verified_at: null });

    const young = await createSetPasswordToken(db(), customer.id, new Date(Date.now() - SET_PASSWORD_TTL_MS + 60_000));
    expect((await openLink(young)).status).toBe(200);
    // An unknown or absurd token is the same expired page, never a 500.
    for (const token of ["", "abc", "x".repeat(5000)]) expect((await openLink(token)).status).toBe(410);
  });

  it("gives an existing account the plan instead, with no new account and no e-mail, and says so", async () => {
    const existing = await createUser(db(), { fullName: "Dana Existing" });
    const quote = await storeQuote({ email: existing.email.toUpperCase() });
    const before = await snapshot(quote.id);
    const response = await post(quote.id, conversionForm(quote));
    expect(response.status).toBe(302);
    expect((await toastOf(response))?.description).toBe(
      `An account with ${quote.email} already existed: the plan was added to it.`,
    );
    const after = await snapshot(quote.id);
    expect(after.counts.users).toBe(before.counts.users);
    expect(after.counts.account_tokens).toBe(before.counts.account_tokens);
    expect(after.counts.customer_plans - before.counts.customer_plans).toBe(1);
    expect(after.quote).toMatchObject({ status: "won", customer_id: existing.id, customer_existed: true });
    const { conversion } = await (await page(quote.id)).json();
    expect(conversion).toMatchObject({ state: "converted", existed: true, customer: { id: existing.id } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.current.messages.filter((m) => m.subject === "Set your password")).toHaveLength(0);
  });
});

describe("Create customer and plan: refusals store nothing", () => {
  async function expectRefused(quoteId: string, pairs: Pairs, status: number, message: string, cookie?: string) {
    const before = await snapshot(quoteId);
    const response = await post(quoteId, pairs, cookie);
    expect(response.status).toBe(status);
    const data = await response.json();
    expect(JSON.stringify(data)).toContain(message);
    expect(await snapshot(quoteId)).toEqual(before);
  }

  it("a weekday count that does not match the plan, a missing catalogue plan, a one-time plan, bad fields", async () => {
    const quote = await storeQuote();
    await expectRefused(quote.id, conversionForm(quote, { weekdays: ["1", "2"] }), 400, "pick 1 service day");
    await expectRefused(quote.id, conversionForm(quote, { weekdays: [] }), 400, "Choose the service days");
    await expectRefused(quote.id, conversionForm(quote, { weekdays: ["6"] }), 400, "Choose the service days");
    await expectRefused(quote.id, conversionForm(quote, { cataloguePlanId: "servicePlan.nope" }), 400, "Choose a plan");
    await expectRefused(
      quote.id,
      conversionForm(quote, { cataloguePlanId: "servicePlan.desert-dash" }),
      400,
      "Choose a plan",
    );
    await expectRefused(quote.id, conversionForm(quote, { email: "not-an-address" }), 400, "valid e-mail");
    await expectRefused(quote.id, conversionForm(quote, { zip: "8904" }), 400, "5-digit ZIP");
    await expectRefused(quote.id, conversionForm(quote, { fullName: "Nul\u0000name" }), 400, "cannot be stored");
    await expectRefused(quote.id, conversionForm(quote, { startDate: "2026-02-30" }), 400, "Enter a date");
    await expectRefused(quote.id, conversionForm(quote, { dogCount: "0" }), 400, "Dogs: a whole number");
    smtp.current.messages.length = 0;
  });

  it("a plan the workflow refuses (start date in the past) leaves no account behind", async () => {
    const quote = await storeQuote();
    const yesterday = addDays(businessToday(), -1);
    await expectRefused(
      quote.id,
      conversionForm(quote, { startDate: yesterday }),
      400,
      "Start date cannot be in the past",
    );
    const user = await db().selectFrom("users").select("id").where("email", "=", quote.email).executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it("an existing account that already has a plan, and an admin's address, are refused", async () => {
    const existing = await createUser(db());
    const first = await storeQuote({ email: existing.email });
    expect((await post(first.id, conversionForm(first))).status).toBe(302);
    const second = await storeQuote({ email: existing.email, name: "Someone Else" });
    await expectRefused(second.id, conversionForm(second), 409, "already has a plan");
    const adminQuote = await storeQuote({ email: admin.email });
    await expectRefused(adminQuote.id, conversionForm(adminQuote), 409, "belongs to an admin account");
  });

  it("a request converted already is refused; two admins submitting at once make one account", async () => {
    const quote = await storeQuote();
    const other = await createUser(db(), { admin: true, fullName: "Bo Admin" });
    const otherCookie = await sessionCookieFor(other.id);
    const before = await snapshot(quote.id);
    const answers = await Promise.all([
      post(quote.id, conversionForm(quote)),
      post(quote.id, conversionForm(quote), otherCookie),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([302, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(JSON.stringify(await refused.json())).toContain(ALREADY_CONVERTED);
    const after = await snapshot(quote.id);
    expect(after.counts.users - before.counts.users).toBe(1);
    expect(after.counts.customer_plans - before.counts.customer_plans).toBe(1);
    expect(await invitesTo(quote.email)).toBe(1);
    await inviteToken(quote.email);
    expect((await snapshot(quote.id)).counts.account_tokens - before.counts.account_tokens).toBe(1);
    // And later, once more: refused, nothing stored.
    await expectRefused(quote.id, conversionForm(quote), 409, ALREADY_CONVERTED);
  });

  it("the invitation waits in the outbox: lost while SMTP is down, it is retried with a working link", async () => {
    const quote = await storeQuote();
    await smtp.current.stop();
    expect((await post(quote.id, conversionForm(quote))).status).toBe(302);
    const queued = await db()
      .selectFrom("outbox")
      .selectAll()
      .where("kind", "=", "account_invite")
      .where("to_address", "=", quote.email)
      .executeTakeFirstOrThrow();
    expect(queued).toMatchObject({ subject: "Set your password", status: "pending", attempts: 0 });
    // The stored text has the link's place, never a link.
    expect(queued.text_body).toContain(INVITE_LINK_PLACEHOLDER);
    expect(queued.text_body).not.toContain("/auth/set-password");
    // The plan's own e-mails are not what this test is about: out of the way.
    await db().updateTable("outbox").set({ status: "sent" }).where("kind", "<>", "account_invite").execute();

    // The mail server is down: the send fails and is kept for a retry (it was lost before).
    expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 1 });
    const failed = await db().selectFrom("outbox").selectAll().where("id", "=", queued.id).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: "pending", attempts: 1 });
    expect(failed.text_body).toBe(queued.text_body);

    await smtp.current.start();
    process.env.SMTP_URL = smtp.current.url;
    resetEnvCache();
    expect(await deliverDueEmails({ ignoreBackoff: true })).toEqual({ sent: 1, failed: 0 });
    const token = await inviteToken(quote.email);
    const sent = await db().selectFrom("outbox").selectAll().where("id", "=", queued.id).executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ status: "sent", attempts: 2 });
    expect(sent.text_body).not.toContain(token);
    const set = await setPassword(token, "a brand new password");
    expect(set.status).toBe(302);
    expect(locationOf(set)).toBe("/customer-dashboard");
  });

  it("a request that does not exist is 404 with nothing stored", async () => {
    const quote = await storeQuote();
    const missing = "00000000-0000-4000-8000-000000000000";
    const before = await snapshot(quote.id);
    expect((await post(missing, conversionForm(quote))).status).toBe(404);
    expect((await post("not-a-uuid", conversionForm(quote))).status).toBe(404);
    expect(await snapshot(quote.id)).toEqual(before);
  });
});

describe("Create customer and plan: who may", () => {
  it("signed out, a customer, and an admin without the second step are turned away from the page and the form", async () => {
    const quote = await storeQuote();
    const customer = await createUser(db());
    const halfAdmin = await createUser(db(), { admin: true });
    const cookies: Record<string, string> = {
      "signed out": "",
      customer: await sessionCookieFor(customer.id),
      "admin without second step": await sessionCookieFor(halfAdmin.id, { secondStep: false }),
    };
    const before = await snapshot(quote.id);
    for (const [who, cookie] of Object.entries(cookies)) {
      const view = await page(quote.id, cookie);
      expect(view.status, who).toBe(302);
      const response = await post(quote.id, conversionForm(quote), cookie);
      expect(response.status, who).toBe(302);
      expect(locationOf(response), who).not.toContain("/admin-dashboard/quotes");
    }
    expect(await snapshot(quote.id)).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.current.messages).toHaveLength(0);
  });
});

describe("A converted request's status is fixed (decision 099)", () => {
  const statusForm = (status: string): Pairs => [["status", status]];

  it("an open request's status changes, with the success toast and nothing else", async () => {
    const quote = await storeQuote();
    const before = await snapshot(quote.id);
    const response = await post(quote.id, statusForm("contacted"));
    expect(response.status).toBe(302);
    expect(await toastOf(response)).toMatchObject({
      type: "success",
      message: "Status updated",
      description: `${quote.name}'s request is now marked contacted.`,
    });
    const after = await snapshot(quote.id);
    expect(after.counts).toEqual(before.counts);
    expect(after.quote).toMatchObject({ status: "contacted", customer_id: null, converted_at: null });
  });

  it("a converted request refuses every status change with 409 and the reason, storing nothing", async () => {
    const quote = await storeQuote();
    expect((await post(quote.id, conversionForm(quote))).status).toBe(302);
    await inviteToken(quote.email);
    const before = await snapshot(quote.id);
    expect(before.quote.status).toBe("won");
    for (const status of ["new", "contacted", "lost", "won"]) {
      const response = await post(quote.id, statusForm(status));
      expect(response.status, status).toBe(409);
      expect(await toastOf(response)).toBeUndefined();
      const data = await response.json();
      expect(data.toast).toEqual({ type: "error", message: "Error", description: STATUS_FIXED_MESSAGE });
      expect(data.lastResult.error).toEqual({ "": [STATUS_FIXED_MESSAGE] });
    }
    // Not even updated_at moved.
    expect(await snapshot(quote.id)).toEqual(before);
    const { conversion, quote: shown } = await (await page(quote.id)).json();
    expect(conversion.state).toBe("converted");
    expect(shown.status).toBe("won");
  });
});
