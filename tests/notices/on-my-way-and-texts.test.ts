import twilio from "twilio";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { useTestSmtp } from "../helpers/smtp-server";
import { startTwilioStandIn, type TwilioStandIn } from "../helpers/twilio-stand-in";
import { getSiteSettings } from "~/content/content.server";
import { onMyWayView } from "~/features/notices/on-my-way-view.server";
import { formatBusinessClock, sendOnMyWay } from "~/features/notices/on-my-way.server";
import { twilioWebhookUrl } from "~/features/notices/text-webhook.server";
import { deliverDueEmails } from "~/features/outbox/outbox.server";
import { TEXT_EXPIRED_BEFORE_HOURS } from "~/features/outbox/texts.server";
import { loadAdminVisit } from "~/features/visits/visit-page.server";
import { loader as customerVisitLoader } from "~/routes/customer-dashboard_.visits.$visitId";
import { action as yardAction } from "~/routes/customer-dashboard_.yard";
import { action as onMyWayAction } from "~/routes/admin-dashboard.visits.$visitId.on-my-way";
import { loader as todayLoader } from "~/routes/admin-dashboard.visits.today";
import { action as webhookAction } from "~/routes/resources.webhooks.twilio";
import { resetEnvCache } from "~/utils/env.server";

const database = useAppDatabase();
const db = () => database.current.db;
const smtp = useTestSmtp("Yard Team <team@example.com>");
const SID = `AC${"a1".repeat(16)}`;
const TOKEN = "test-auth-token-0123456789";
const FROM = "+17025550199";
const MOBILE = "+17025550123";
let standIn: TwilioStandIn;
let admin: TestUser;
let customer: TestUser;
let adminCookie: string;
let customerCookie: string;

// 10:00 and 21:00 in Las Vegas (PDT, UTC-7) on a fixed day: the clock of the text-hours tests.
const MORNING = new Date("2030-04-02T17:00:00Z");
const NIGHT = new Date("2030-04-03T04:00:00Z");
const NEXT_8AM = new Date("2030-04-03T15:00:00Z");

function useTwilio(on: boolean) {
  for (const [key, value] of Object.entries({
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: FROM,
    TWILIO_API_BASE_URL: standIn.url,
    // The public URL Twilio signs (behind Fly's proxy the app itself sees another).
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
  adminCookie = await sessionCookieFor(admin.id);
  customerCookie = await sessionCookieFor(customer.id);
});
afterAll(async () => {
  useTwilio(false);
  await standIn.close();
});
beforeEach(async () => {
  useTwilio(true);
  standIn.requests.length = 0;
  await db().deleteFrom("outbox").execute();
  await db().deleteFrom("service_events").execute();
  await db().deleteFrom("services").execute();
  await db().deleteFrom("yard_profiles").execute();
  await db().deleteFrom("text_opt_outs").execute();
  await db().deleteFrom("text_replies").execute();
});
afterEach(() => useTwilio(false));

async function visitAt(date: Date, status: "scheduled" | "completed" = "scheduled") {
  return db()
    .insertInto("services")
    .values({ customer_id: customer.id, service_type: "Weekly Service", service_date: date, status })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function consentToTexts(phone = MOBILE) {
  await db()
    .insertInto("yard_profiles")
    .values({ user_id: customer.id, mobile_phone: phone, text_consent_at: new Date() })
    .execute();
}

const pressOnMyWay = (visitId: string, cookie = adminCookie, form: Record<string, string> = { returnTo: "visit" }) =>
  callRoute(onMyWayAction, `/admin-dashboard/visits/${visitId}/on-my-way`, { cookie, params: { visitId }, form });

const visitEvents = () => db().selectFrom("service_events").selectAll().orderBy("created_at").execute();
const outboxRows = () => db().selectFrom("outbox").selectAll().orderBy("created_at").execute();

function signedWebhook(
  params: Record<string, string>,
  signature = twilio.getExpectedTwilioSignature(TOKEN, twilioWebhookUrl(), params),
) {
  const headers: Record<string, string> = signature ? { "X-Twilio-Signature": signature } : {};
  return callRoute(webhookAction, "/resources/webhooks/twilio", {
    form: params,
    headers,
  });
}
const inbound = (body: string, from = MOBILE, n = 1) => ({
  MessageSid: `SM${n.toString(16).padStart(32, "0")}`,
  AccountSid: SID,
  From: from,
  To: FROM,
  Body: body,
});

describe("On my way", () => {
  test("twice sends once: one e-mail with the window and the business phone; the second press says when", async () => {
    const visit = await visitAt(new Date());
    const first = await pressOnMyWay(visit.id);
    expect(first.status).toBe(302);
    expect(locationOf(first)).toBe(`/admin-dashboard/visits/${visit.id}`);
    expect((await toastOf(first))?.type).toBe("success");

    const second = await pressOnMyWay(visit.id, adminCookie, { returnTo: "today" });
    expect(locationOf(second)).toBe("/admin-dashboard/visits/today");
    const again = await toastOf(second);
    expect(again?.type).toBe("info");
    expect(again?.description).toMatch(/sent at \d{1,2}:\d{2} (AM|PM); nothing new was sent/);

    const rows = await outboxRows();
    expect(rows.map((r) => r.kind)).toEqual(["on_my_way"]);
    const stored = await db()
      .selectFrom("services")
      .select("on_my_way_at")
      .where("id", "=", visit.id)
      .executeTakeFirst();
    expect(stored?.on_my_way_at).toBeInstanceOf(Date);
    // One line in the visit's History (migration 0018), by the admin who pressed; the second
    // press adds none.
    const events = await visitEvents();
    expect(events.map((e) => [e.service_id, e.kind, e.actor_id])).toEqual([[visit.id, "on_my_way", admin.id]]);
    expect(events[0].detail).toMatch(
      /^On my way sent by e-mail, arriving \d{1,2}:\d{2} (AM|PM) – \d{1,2}:\d{2} (AM|PM)$/,
    );
    const { history } = await loadAdminVisit(visit.id);
    expect(history.map((line) => line.what)).toEqual([events[0].detail]);
    // Today's card says when, from the day's one read of its visits.
    const todayPage = await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: adminCookie });
    const cards = (await todayPage.json()).visits as { id: string; onMyWaySentAt: string | null }[];
    expect(cards.find((card) => card.id === visit.id)?.onMyWaySentAt).toBe(formatBusinessClock(stored!.on_my_way_at!));

    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 });
    const [mail] = await smtp.current.waitForMessages(1);
    const settings = await getSiteSettings();
    expect(mail.subject).toBe("Your technician is on the way");
    expect(mail.text).toContain(settings.phone);
    expect(mail.text).toMatch(/between \d{1,2}:\d{2} (AM|PM) – \d{1,2}:\d{2} (AM|PM) today/);

    // The customer's page says "On the way" until the visit is completed.
    const page = await callRoute(customerVisitLoader, `/customer-dashboard/visits/${visit.id}`, {
      cookie: customerCookie,
      params: { visitId: visit.id },
    });
    expect((await page.json()).visit.onTheWaySince).toMatch(/\d{1,2}:\d{2} (AM|PM)/);
    await db().updateTable("services").set({ status: "completed" }).where("id", "=", visit.id).execute();
    const after = await callRoute(customerVisitLoader, `/customer-dashboard/visits/${visit.id}`, {
      cookie: customerCookie,
      params: { visitId: visit.id },
    });
    expect((await after.json()).visit.onTheWaySince).toBeNull();
  });

  test("the route's estimate starts the window; 30 minutes long", async () => {
    const visit = await visitAt(MORNING);
    const result = await sendOnMyWay({
      visitId: visit.id,
      adminId: admin.id,
      now: MORNING,
      estimate: new Date(MORNING.getTime() + 45 * 60_000),
    });
    expect(result).toMatchObject({ kind: "sent", window: "10:45 AM – 11:15 AM" });
  });

  test("refused: a customer, another day's visit, a completed visit; nothing stored", async () => {
    const today = await visitAt(new Date());
    const byCustomer = await pressOnMyWay(today.id, customerCookie);
    expect(byCustomer.status).toBe(302);
    expect(locationOf(byCustomer)).toBe("/customer-dashboard");
    expect((await toastOf(byCustomer))?.type).toBe("error");

    const tomorrow = await visitAt(new Date(Date.now() + 2 * 24 * 3600_000));
    const otherDay = await pressOnMyWay(tomorrow.id);
    expect((await toastOf(otherDay))?.description).toContain("only for today's visits");

    const done = await visitAt(new Date(), "completed");
    const completed = await pressOnMyWay(done.id);
    expect((await toastOf(completed))?.description).toContain("only for a scheduled visit");

    const unknown = await pressOnMyWay("00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);

    expect(await outboxRows()).toEqual([]);
    const marked = await db().selectFrom("services").select("id").where("on_my_way_at", "is not", null).execute();
    expect(marked).toEqual([]);
    expect(await visitEvents()).toEqual([]);
  });
});

describe("texts", () => {
  test("with consent, within the hours: the package's request reaches the stand-in", async () => {
    await consentToTexts();
    const visit = await visitAt(MORNING);
    const result = await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: MORNING });
    expect(result).toMatchObject({ kind: "sent", texted: true });
    const sent = await deliverDueEmails({ ignoreBackoff: true, now: () => MORNING });
    expect(sent).toEqual({ sent: 2, failed: 0 });
    expect(standIn.requests).toHaveLength(1);
    const [request] = standIn.requests;
    expect(request.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request.accountSid).toBe(SID);
    expect(request.params.To).toBe(MOBILE);
    expect(request.params.From).toBe(FROM);
    expect(request.params.Body).toContain("your technician is on the way, arriving 10:00 AM – 10:30 AM");
    expect(request.params.Body).toContain("Reply STOP to opt out");
    const text = (await outboxRows()).find((r) => r.kind === "text_on_my_way");
    expect(text?.status).toBe("sent");
    expect((await visitEvents()).map((e) => e.detail)).toEqual([
      "On my way sent by e-mail and text, arriving 10:00 AM – 10:30 AM",
    ]);
  });

  test("without consent: no text row, nothing sent", async () => {
    await db().insertInto("yard_profiles").values({ user_id: customer.id, mobile_phone: MOBILE }).execute();
    const visit = await visitAt(MORNING);
    expect(await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: MORNING })).toMatchObject({ texted: false });
    await deliverDueEmails({ ignoreBackoff: true, now: () => MORNING });
    expect((await outboxRows()).map((r) => r.kind)).toEqual(["on_my_way"]);
    expect(standIn.requests).toEqual([]);
  });

  test("at 9 pm the text is not held until 8 am: its window ends first, so it is kept as skipped and never sent", async () => {
    await consentToTexts();
    const visit = await visitAt(new Date("2030-04-03T03:30:00Z")); // 8:30 pm, the same business day
    const result = await sendOnMyWay({ visitId: visit.id, adminId: admin.id, now: NIGHT });
    // Told by e-mail only (decision 109; before it, the text went at 8 am with last night's window).
    expect(result).toMatchObject({ kind: "sent", texted: false });
    const text = (await outboxRows()).find((r) => r.kind === "text_on_my_way")!;
    expect(text).toMatchObject({ status: "skipped", last_error: TEXT_EXPIRED_BEFORE_HOURS });
    expect(text.expires_at).toEqual(new Date(NIGHT.getTime() + 30 * 60_000));
    expect((await visitEvents()).map((e) => e.detail)).toEqual([
      "On my way sent by e-mail, arriving 9:00 PM – 9:30 PM",
    ]);

    await deliverDueEmails({
      ignoreBackoff: true,
      retryFailed: true,
      now: () => new Date(NEXT_8AM.getTime() + 60_000),
    });
    expect(standIn.requests).toEqual([]);
  });

  test("without the Twilio variables: the text row is kept as skipped and the visit page says texts are not set up", async () => {
    useTwilio(false);
    await consentToTexts();
    const visit = await visitAt(new Date());
    await sendOnMyWay({ visitId: visit.id, adminId: admin.id });
    const text = (await outboxRows()).find((r) => r.kind === "text_on_my_way");
    expect(text).toMatchObject({ status: "skipped" });
    expect(text?.last_error).toContain("not set up");
    expect(await onMyWayView(visit.id)).toMatchObject({ textsConfigured: false, canSend: false });
    expect((await onMyWayView(visit.id)).sentAt).toMatch(/\d{1,2}:\d{2} (AM|PM)/);
  });

  test("STOP stops texts (a queued one too); START allows them again; a replay changes nothing", async () => {
    await consentToTexts();
    const queued = await visitAt(MORNING);
    await sendOnMyWay({ visitId: queued.id, adminId: admin.id, now: MORNING });

    const stop = await signedWebhook(inbound("  stop "));
    expect(stop.status).toBe(200);
    expect(stop.headers.get("Content-Type")).toContain("text/xml");
    expect(await db().selectFrom("text_opt_outs").select("phone").execute()).toEqual([{ phone: MOBILE }]);

    // The text queued before the STOP never goes.
    await deliverDueEmails({ ignoreBackoff: true, now: () => MORNING });
    expect(standIn.requests).toEqual([]);
    expect((await outboxRows()).find((r) => r.kind === "text_on_my_way")?.status).toBe("skipped");

    // Nor is one queued after it.
    const next = await visitAt(new Date(MORNING.getTime() + 3600_000));
    expect(await sendOnMyWay({ visitId: next.id, adminId: admin.id, now: MORNING })).toMatchObject({ texted: false });

    expect((await signedWebhook(inbound("START", MOBILE, 2))).status).toBe(200);
    expect(await db().selectFrom("text_opt_outs").selectAll().execute()).toEqual([]);
    // The first STOP again (a replay): recorded already, so it changes nothing.
    expect((await signedWebhook(inbound("  stop "))).status).toBe(200);
    expect(await db().selectFrom("text_opt_outs").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("text_replies").select("keyword").orderBy("received_at").execute()).toHaveLength(2);
  });

  test("a STOP from a number never texted is recorded; HELP answers with the business's phone", async () => {
    const stranger = "+14155550100";
    for (const [i, word] of ["STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"].entries()) {
      expect((await signedWebhook(inbound(word, stranger, 10 + i))).status).toBe(200);
    }
    expect(await db().selectFrom("text_opt_outs").select("phone").execute()).toEqual([{ phone: stranger }]);
    const help = await signedWebhook(inbound("help", stranger, 20));
    const settings = await getSiteSettings();
    const xml = await help.text();
    expect(xml).toContain("<Response><Message>");
    expect(xml).toContain(settings.phone);
    // Any other message: an empty answer, nothing recorded.
    const chat = await signedWebhook(inbound("thanks!", stranger, 21));
    expect(await chat.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(await db().selectFrom("text_replies").selectAll().execute()).toHaveLength(6);
  });

  test("the webhook refuses a bad signature and an unsigned request: 403, nothing stored", async () => {
    const params = inbound("STOP");
    const forged = await signedWebhook(
      params,
      twilio.getExpectedTwilioSignature("wrong-token-0123456789", twilioWebhookUrl(), params),
    );
    expect(forged.status).toBe(403);
    // Signed for the request's own (internal) URL rather than the public one: refused too.
    const internal = await signedWebhook(
      params,
      twilio.getExpectedTwilioSignature(TOKEN, "http://app.internal:8080/resources/webhooks/twilio", params),
    );
    expect(twilioWebhookUrl()).toBe("https://yards.example.com/resources/webhooks/twilio");
    expect(internal.status).toBe(403);
    const unsigned = await signedWebhook(params, "");
    expect(unsigned.status).toBe(403);
    const tampered = await signedWebhook(
      { ...params, Body: "START" },
      twilio.getExpectedTwilioSignature(TOKEN, twilioWebhookUrl(), params),
    );
    expect(tampered.status).toBe(403);
    const huge = await callRoute(webhookAction, "/resources/webhooks/twilio", {
      form: { ...params, Pad: "x".repeat(20_000) },
      headers: { "X-Twilio-Signature": "x" },
    });
    expect(huge.status).toBe(413);
    expect(await db().selectFrom("text_opt_outs").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("text_replies").selectAll().execute()).toEqual([]);
  });
});

describe("Your Yard: mobile number and consent", () => {
  const save = (form: Record<string, string>) =>
    callRoute(yardAction, "/customer-dashboard/yard", {
      cookie: customerCookie,
      form: { intent: "yard", dogCount: "1", ...form },
    });

  test("a mobile number is stored in E.164 with the time of consent; unchecked by default means no consent", async () => {
    expect((await save({ mobilePhone: "(702) 555-0123" })).status).toBe(302);
    let yard = await db().selectFrom("yard_profiles").selectAll().executeTakeFirstOrThrow();
    expect(yard).toMatchObject({ mobile_phone: MOBILE, text_consent_at: null });
    expect((await save({ mobilePhone: "702-555-0123", textVisits: "on" })).status).toBe(302);
    yard = await db().selectFrom("yard_profiles").selectAll().executeTakeFirstOrThrow();
    expect(yard.text_consent_at).toBeInstanceOf(Date);
  });

  test("not a mobile number, or texts without a number: 400 with the message, nothing stored", async () => {
    const forms: Record<string, string>[] = [
      { mobilePhone: "+44 20 7183 8750" },
      { mobilePhone: "1-800-555-0100" },
      { mobilePhone: "12345" },
      { textVisits: "on" },
    ];
    for (const form of forms) {
      const response = await save(form);
      expect(response.status, JSON.stringify(form)).toBe(400);
      const body = await response.json();
      expect(JSON.stringify(body.lastResult.error)).toMatch(/mobile number/);
    }
    expect(await db().selectFrom("yard_profiles").selectAll().execute()).toEqual([]);
  });
});
