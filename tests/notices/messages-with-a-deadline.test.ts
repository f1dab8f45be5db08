import twilio from "twilio";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { useTestSmtp } from "../helpers/smtp-server";
import { startTwilioStandIn, type TwilioStandIn } from "../helpers/twilio-stand-in";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { sendOnMyWay } from "~/features/notices/on-my-way.server";
import { TextAgainPanel } from "~/features/notices/text-again-form";
import { loadAdminVisit } from "~/features/visits/visit-page.server";
import { keywordOf, twilioWebhookUrl } from "~/features/notices/text-webhook.server";
import { deliverDueEmails } from "~/features/outbox/outbox.server";
import { nextTextTime } from "~/features/outbox/text-hours";
import {
  MESSAGE_EXPIRED,
  TEXT_NO_CONSENT,
  TEXT_OPTED_OUT,
  TEXT_UNSUBSCRIBED_AT_TWILIO,
  textNumberRefused,
} from "~/features/outbox/texts.server";
import { action as yardAction, loader as yardLoader } from "~/routes/customer-dashboard_.yard";
import { action as webhookAction } from "~/routes/resources.webhooks.twilio";
import { resetEnvCache } from "~/utils/env.server";

/**
 * Issue 35 item 3 (docs/decisions/109): messages with a deadline, consent and the STOP list
 * checked when a text is sent, Twilio's 21610, the STOP words, and "Text me again" on Your Yard.
 * A real database, a real SMTP server on loopback, and the official twilio package pointed at
 * the local stand-in of its Messages API.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const smtp = useTestSmtp("Yard Team <team@example.com>");
const SID = `AC${"b2".repeat(16)}`;
const TOKEN = "test-auth-token-0123456789";
const FROM = "+17025550199";
const MOBILE = "+17025550123";
let standIn: TwilioStandIn;
let admin: TestUser;
let customer: TestUser;
let customerCookie: string;

// 10:00 in Las Vegas (PDT, UTC-7) on a fixed day; the window "On my way" promises ends at 10:30.
const MORNING = new Date("2030-04-02T17:00:00Z");
const minutes = (n: number) => new Date(MORNING.getTime() + n * 60_000);
/** A moment texts may be sent, within a day of the real clock (the routes here read it). */
const textHours = () => nextTextTime(new Date(Date.now() + 60_000));

function useTwilio(on: boolean) {
  for (const [key, value] of Object.entries({
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: FROM,
    TWILIO_API_BASE_URL: standIn.url,
    SITE_URL: "https://yards.example.com",
  })) {
    if (on) process.env[key] = value;
    else delete process.env[key];
  }
  resetEnvCache();
}

beforeAll(async () => {
  standIn = await startTwilioStandIn();
  admin = await createUser(db(), { admin: true });
  customer = await createUser(db(), { fullName: "Carla Customer" });
  customerCookie = await sessionCookieFor(customer.id);
});
afterAll(async () => {
  useTwilio(false);
  await standIn.close();
});
beforeEach(async () => {
  useTwilio(true);
  standIn.requests.length = 0;
  standIn.unsubscribed.clear();
  standIn.refusedNumbers.clear();
  standIn.failWith = null;
  for (const table of [
    "outbox",
    "service_events",
    "services",
    "yard_profiles",
    "text_opt_outs",
    "text_replies",
    "text_opt_in_requests",
    "rate_limits",
  ] as const) {
    await db().deleteFrom(table).execute();
  }
});
afterEach(() => useTwilio(false));

async function visitAt(date: Date) {
  return db()
    .insertInto("services")
    .values({ customer_id: customer.id, service_type: "Weekly Service", service_date: date, status: "scheduled" })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function consentToTexts(phone = MOBILE) {
  await db()
    .insertInto("yard_profiles")
    .values({ user_id: customer.id, mobile_phone: phone, text_consent_at: new Date() })
    .execute();
}

// One transaction queues the e-mail and the text (one created_at): their kind orders them.
const outboxRows = () => db().selectFrom("outbox").selectAll().orderBy("created_at").orderBy("kind").execute();
const textRow = async (kind = "text_on_my_way") => (await outboxRows()).find((r) => r.kind === kind)!;
const emailRow = async () => (await outboxRows()).find((r) => r.kind === "on_my_way")!;
const optOuts = async () => (await db().selectFrom("text_opt_outs").select("phone").execute()).map((r) => r.phone);
const consentAt = async () =>
  (await db().selectFrom("yard_profiles").select("text_consent_at").executeTakeFirst())?.text_consent_at ?? null;

let sids = 0;
function reply(body: string, from = MOBILE) {
  sids += 1;
  const params = {
    MessageSid: `SM${sids.toString(16).padStart(32, "0")}`,
    AccountSid: SID,
    From: from,
    To: FROM,
    Body: body,
  };
  return callRoute(webhookAction, "/resources/webhooks/twilio", {
    form: params,
    headers: { "X-Twilio-Signature": twilio.getExpectedTwilioSignature(TOKEN, twilioWebhookUrl(), params) },
  });
}

const yardPage = async () =>
  (await (await callRoute(yardLoader, "/customer-dashboard/yard", { cookie: customerCookie })).json()) as {
    yard: { textVisits: boolean } | null;
    textOptOut: {
      phone: string;
      request: { askedAt: string; undelivered: boolean } | null;
      textStartTo: string | null;
    } | null;
  };
const pressTextMeAgain = () =>
  callRoute(yardAction, "/customer-dashboard/yard?intent=text-again", { cookie: customerCookie, form: {} });
const saveYard = (form: Record<string, string>) =>
  callRoute(yardAction, "/customer-dashboard/yard", {
    cookie: customerCookie,
    form: { intent: "yard", dogCount: "1", ...form },
  });

describe("messages with a deadline", () => {
  test("within its window the On my way e-mail and text go; after it, both are dropped, not sent", async () => {
    await consentToTexts();
    const early = await visitAt(MORNING);
    await sendOnMyWay({ visitId: early.id, adminId: admin.id, now: MORNING });
    const email = await emailRow();
    expect(email.expires_at).toEqual(minutes(30));
    expect((await textRow()).expires_at).toEqual(minutes(30));
    expect(await deliverDueEmails({ ignoreBackoff: true, now: () => minutes(29) })).toEqual({ sent: 2, failed: 0 });
    expect(standIn.requests).toHaveLength(1);
    expect(smtp.current.messages).toHaveLength(1);
    expect((await outboxRows()).map((r) => [r.status, r.last_error])).toEqual([
      ["sent", null],
      ["sent", null],
    ]);

    await db().deleteFrom("outbox").execute();
    await db().updateTable("services").set({ on_my_way_at: null }).execute();
    await sendOnMyWay({ visitId: early.id, adminId: admin.id, now: MORNING });
    // The worker gets to them only at 10:31 (a slow queue, a restart): the window has passed.
    expect(await deliverDueEmails({ ignoreBackoff: true, now: () => minutes(31) })).toEqual({ sent: 0, failed: 0 });
    expect(standIn.requests).toHaveLength(1);
    expect(smtp.current.messages).toHaveLength(1);
    const rows = await outboxRows();
    expect(rows.map((r) => [r.kind, r.status, r.last_error])).toEqual([
      ["on_my_way", "skipped", MESSAGE_EXPIRED],
      ["text_on_my_way", "skipped", MESSAGE_EXPIRED],
    ]);
    // The admin's visit page says why, not "e-mail is not configured".
    const { emails } = await loadAdminVisit(early.id);
    expect(emails.map((e) => [e.status, e.error])).toEqual([
      ["Not sent", MESSAGE_EXPIRED],
      ["Not sent", MESSAGE_EXPIRED],
    ]);
  });

  test("a text retried through a Twilio outage is dropped once its window has passed, never sent late", async () => {
    await consentToTexts();
    const visit = await visitAt(MORNING);
    await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: MORNING });
    standIn.failWith = 503;
    // limit 2: the e-mail and one attempt of the text (ignoring the backoff would retry it at once).
    await deliverDueEmails({ ignoreBackoff: true, limit: 2, concurrency: 1, now: () => minutes(1) });
    expect(await textRow()).toMatchObject({ status: "pending", attempts: 1 });
    standIn.failWith = null;
    // Twilio is back the next morning: about 40 hours of retries would have sent it then.
    await deliverDueEmails({ ignoreBackoff: true, now: () => minutes(24 * 60) });
    expect(standIn.requests).toHaveLength(1);
    expect(await textRow()).toMatchObject({ status: "skipped", last_error: MESSAGE_EXPIRED });
  });
});

describe("consent and the STOP list, checked when a text is sent", () => {
  test('"Text me" unticked after the text was queued: it is not sent', async () => {
    await consentToTexts();
    const visit = await visitAt(MORNING);
    expect(await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: MORNING })).toMatchObject({ texted: true });
    expect((await saveYard({ mobilePhone: "702-555-0123" })).status).toBe(302);
    expect(await consentAt()).toBeNull();
    await deliverDueEmails({ ignoreBackoff: true, now: () => minutes(1) });
    expect(standIn.requests).toEqual([]);
    expect(await textRow()).toMatchObject({ status: "skipped", last_error: TEXT_NO_CONSENT });
    expect(await emailRow()).toMatchObject({ status: "sent" });
  });

  test("a new number saved after the text was queued: the old number gets nothing", async () => {
    await consentToTexts();
    const visit = await visitAt(MORNING);
    await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: MORNING });
    expect((await saveYard({ mobilePhone: "702-555-0177", textVisits: "on" })).status).toBe(302);
    await deliverDueEmails({ ignoreBackoff: true, now: () => minutes(1) });
    expect(standIn.requests).toEqual([]);
    expect(await textRow()).toMatchObject({ to_address: MOBILE, status: "skipped", last_error: TEXT_NO_CONSENT });
  });

  test("Twilio's 21610 records an opt-out and revokes consent instead of retrying", async () => {
    await consentToTexts();
    const visit = await visitAt(MORNING);
    await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: MORNING });
    // The number replied STOP to Twilio, and the webhook never reached this app.
    standIn.unsubscribed.add(MOBILE);
    expect(await deliverDueEmails({ ignoreBackoff: true, now: () => minutes(1) })).toEqual({ sent: 1, failed: 0 });
    expect(standIn.requests).toHaveLength(1);
    expect(await textRow()).toMatchObject({ status: "skipped", attempts: 1, last_error: TEXT_UNSUBSCRIBED_AT_TWILIO });
    expect(await optOuts()).toEqual([MOBILE]);
    expect(await consentAt()).toBeNull();
    // Nothing left to retry, even by `npm run outbox:send`.
    await deliverDueEmails({ ignoreBackoff: true, retryFailed: true, now: () => minutes(2) });
    expect(standIn.requests).toHaveLength(1);
    // And the next visit queues no text at all.
    const next = await visitAt(minutes(60));
    expect(await sendOnMyWay({ visitId: next.id, adminId: admin.id, now: minutes(2) })).toMatchObject({
      texted: false,
    });
  });

  test.each([21211, 21614])(
    "Twilio's %i (a number that cannot take texts) is closed at once, not retried",
    async (code) => {
      await consentToTexts();
      const visit = await visitAt(MORNING);
      await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: MORNING });
      standIn.refusedNumbers.set(MOBILE, code);
      expect(await deliverDueEmails({ ignoreBackoff: true, now: () => minutes(1) })).toEqual({ sent: 1, failed: 0 });
      expect(standIn.requests).toHaveLength(1);
      expect(await textRow()).toMatchObject({ status: "skipped", attempts: 1, last_error: textNumberRefused(code) });
      // Not an opt-out: the customer did not say STOP, and consent stays as they gave it.
      expect(await optOuts()).toEqual([]);
      expect(await consentAt()).not.toBeNull();
      await deliverDueEmails({ ignoreBackoff: true, retryFailed: true, now: () => minutes(2) });
      expect(standIn.requests).toHaveLength(1);
    },
  );

  test("a STOP after the text was queued: dropped as opted out", async () => {
    await consentToTexts();
    const visit = await visitAt(MORNING);
    await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: MORNING });
    expect((await reply("Stop.")).status).toBe(200);
    await deliverDueEmails({ ignoreBackoff: true, now: () => minutes(1) });
    expect(standIn.requests).toEqual([]);
    expect(await textRow()).toMatchObject({ status: "skipped", last_error: TEXT_OPTED_OUT });
  });
});

describe("the STOP words", () => {
  test("Twilio's defaults and the FCC's revocation words, case, punctuation and whitespace ignored", () => {
    const stops = [
      "STOP",
      "Stop.",
      " stop! ",
      "STOPALL",
      "stop all",
      "Unsubscribe",
      "cancel",
      "END",
      "quit!!",
      "REVOKE",
      "Revoke.",
      "OPTOUT",
      "OPT OUT",
      "opt-out",
      "Opt  out",
      "\u201cstop\u201d",
      "STOP\n",
      "ＳＴＯＰ",
    ];
    for (const body of stops) expect(keywordOf(body), JSON.stringify(body)).toBe("stop");
    for (const body of ["START", "yes", "Unstop."]) expect(keywordOf(body), body).toBe("start");
    for (const body of ["help", "Info?"]) expect(keywordOf(body), body).toBe("help");
    for (const body of ["stop by at noon", "don't stop", "stopp", "opt", "out", "", "!!!", "constructor", "toString"]) {
      expect(keywordOf(body), JSON.stringify(body)).toBeUndefined();
    }
  });

  test("each opt-out word through the webhook records the number and revokes its consent; a chat records nothing", async () => {
    const words = ["Stop.", "REVOKE", "optout", "Opt out", "quit!", "END"];
    for (const [i, word] of words.entries()) {
      expect((await reply(word, `+1415555010${i}`)).status).toBe(200);
    }
    expect((await optOuts()).sort()).toEqual(words.map((_, i) => `+1415555010${i}`).sort());
    await consentToTexts();
    expect((await reply("stop by at noon please")).status).toBe(200);
    expect(await optOuts()).not.toContain(MOBILE);
    expect(await consentAt()).toBeInstanceOf(Date);
    expect((await reply("  Stop!  ")).status).toBe(200);
    expect(await optOuts()).toContain(MOBILE);
    expect(await consentAt()).toBeNull();
  });
});

describe('Your Yard: an opted-out number, and "Text me again"', () => {
  test("STOP, then Your Yard says so; Text me again texts the number once; its YES opts it in with consent", async () => {
    await consentToTexts();
    expect((await yardPage()).textOptOut).toBeNull();
    await reply("STOP");
    const stopped = await yardPage();
    expect(stopped.yard?.textVisits).toBe(false);
    expect(stopped.textOptOut).toEqual({ phone: "(702) 555-0123", request: null, textStartTo: "(702) 555-0199" });

    const pressed = await pressTextMeAgain();
    expect(pressed.status).toBe(302);
    expect(locationOf(pressed)).toBe("/customer-dashboard/yard");
    const toast = await toastOf(pressed);
    expect(toast?.type).toBe("success");
    expect(toast?.description).toContain("(702) 555-0123");
    // Asking is not opting in: only the number's own reply does that.
    expect(await optOuts()).toEqual([MOBILE]);

    await deliverDueEmails({ ignoreBackoff: true, now: textHours });
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests[0].params.To).toBe(MOBILE);
    expect(standIn.requests[0].params.Body).toContain("Reply START to confirm");
    expect(await textRow("text_opt_in")).toMatchObject({ status: "sent", recipient_id: customer.id });
    const waiting = await yardPage();
    expect(waiting.textOptOut?.request).toMatchObject({ undelivered: false });
    expect(waiting.textOptOut?.request?.askedAt).toMatch(/\d{1,2}:\d{2} (AM|PM)/);

    expect((await reply("Yes!")).status).toBe(200);
    expect(await optOuts()).toEqual([]);
    expect(await consentAt()).toBeInstanceOf(Date);
    const back = await yardPage();
    expect(back.textOptOut).toBeNull();
    expect(back.yard?.textVisits).toBe(true);
    const confirmed = await db().selectFrom("text_opt_in_requests").selectAll().execute();
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0].confirmed_at).toBeInstanceOf(Date);

    // Texts go again.
    const visit = await visitAt(MORNING);
    expect(await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: MORNING })).toMatchObject({ texted: true });
    await deliverDueEmails({ ignoreBackoff: true, now: () => minutes(1) });
    expect(await textRow()).toMatchObject({ status: "sent" });
    expect(standIn.requests).toHaveLength(2);
  });

  test("the panel is a plain form that posts without JavaScript, with the consent words", () => {
    const html = renderToString(
      createElement(TextAgainPanel, {
        optOut: { phone: "(702) 555-0123", request: null, textStartTo: "(702) 555-0199" },
        businessName: "Swift Scoop",
      }),
    );
    expect(html).toContain('<form method="post" action="/customer-dashboard/yard?intent=text-again"');
    expect(html).toContain("(702) 555-0123 replied STOP, so we do not text it.");
    expect(html).toContain("Consent is not a condition of service.");
    expect(html).toMatch(/<button type="submit"[^>]*>Text me again<\/button>/);
  });

  test("refused: a number that did not opt out, no number, the fourth press of a day; nothing stored, nothing texted", async () => {
    await consentToTexts();
    const notStopped = await pressTextMeAgain();
    expect((await toastOf(notStopped))?.type).toBe("info");

    await reply("STOP");
    for (let i = 0; i < 2; i++) expect((await toastOf(await pressTextMeAgain()))?.type).toBe("success");
    const limited = await pressTextMeAgain();
    expect(limited.status).toBe(302);
    expect((await toastOf(limited))?.type).toBe("error");
    expect((await toastOf(limited))?.description).toContain("3 times a day");
    // The first press counted too: two requests and two texts in all, the rest refused.
    expect(await db().selectFrom("text_opt_in_requests").selectAll().execute()).toHaveLength(2);
    expect((await outboxRows()).filter((r) => r.kind === "text_opt_in")).toHaveLength(2);

    await db().deleteFrom("rate_limits").execute();
    await db().updateTable("yard_profiles").set({ mobile_phone: null }).execute();
    const noNumber = await pressTextMeAgain();
    expect((await toastOf(noNumber))?.type).toBe("error");
    expect(await db().selectFrom("text_opt_in_requests").selectAll().execute()).toHaveLength(2);

    // Signed out: to the sign-in page, nothing stored.
    const anonymous = await callRoute(yardAction, "/customer-dashboard/yard?intent=text-again", { form: {} });
    expect(anonymous.status).toBe(302);
    expect(locationOf(anonymous)).toMatch(/^\/auth/);
    expect(await db().selectFrom("text_opt_in_requests").selectAll().execute()).toHaveLength(2);
  });

  test("when Twilio still blocks the number (21610), Your Yard says to text START from the phone", async () => {
    await consentToTexts();
    await reply("STOP");
    standIn.unsubscribed.add(MOBILE);
    await pressTextMeAgain();
    await deliverDueEmails({ ignoreBackoff: true, now: textHours });
    expect(await textRow("text_opt_in")).toMatchObject({ status: "skipped", last_error: TEXT_UNSUBSCRIBED_AT_TWILIO });
    const page = await yardPage();
    expect(page.textOptOut?.request).toMatchObject({ undelivered: true });
    expect(page.textOptOut?.textStartTo).toBe("(702) 555-0199");
    // START from the phone itself still opts it in, and confirms the open request.
    await reply("start");
    expect(await optOuts()).toEqual([]);
    expect(await consentAt()).toBeInstanceOf(Date);
  });

  test("asked at 10 pm: the confirmation text waits for 8 am (it is still open then), and is sent", async () => {
    await consentToTexts();
    await reply("STOP");
    const night = new Date("2030-04-03T05:00:00Z"); // 10 pm
    const { handleTextAgainPost } = await import("~/features/notices/text-again.server");
    const pressed = await handleTextAgainPost(customer.id, night);
    expect((await toastOf(pressed))?.description).toContain("after 8 AM");
    await deliverDueEmails({ ignoreBackoff: true, now: () => night });
    expect(standIn.requests).toEqual([]);
    expect(await textRow("text_opt_in")).toMatchObject({ status: "pending", attempts: 0 });
    await deliverDueEmails({ ignoreBackoff: true, now: () => new Date("2030-04-03T15:05:00Z") });
    expect(standIn.requests).toHaveLength(1);
  });
});
