import { getSiteSettings } from "~/content/content.server";
import { optOutNumber } from "~/features/outbox/texts.server";
import { clearOptOut, confirmOptInRequests, recordTextReply } from "~/models/text-opt-out.server";
import { grantTextConsent } from "~/models/yard-profile.server";
import { getDb } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { log } from "~/utils/logger.server";
import { BodyTooLargeError, readBodyWithLimit } from "~/utils/read-body-with-limit.server";
import { isValidTwilioSignature, messagingTwiml } from "~/utils/texts.server";

/** Twilio's inbound message webhooks are a few hundred bytes; 16 KB is generous. */
export const TWILIO_WEBHOOK_MAX_BYTES = 16 * 1024;
export const TWILIO_WEBHOOK_PATH = "/resources/webhooks/twilio";

/**
 * The keywords, as a whole message (docs/decisions/109). Opting out: Twilio's current default
 * list (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT) and the words the FCC's
 * 2025 rule names as revoking consent (stop, quit, end, revoke, opt out, cancel, unsubscribe).
 * Opting in: Twilio's (START, YES, UNSTOP). Help: HELP, INFO.
 */
const KEYWORDS: Record<string, "stop" | "start" | "help"> = {
  STOP: "stop",
  STOPALL: "stop",
  "STOP ALL": "stop",
  UNSUBSCRIBE: "stop",
  CANCEL: "stop",
  END: "stop",
  QUIT: "stop",
  REVOKE: "stop",
  OPTOUT: "stop",
  "OPT OUT": "stop",
  START: "start",
  YES: "start",
  UNSTOP: "start",
  HELP: "help",
  INFO: "help",
};

/**
 * The keyword a message is, case and the punctuation, symbols and whitespace around it ignored
 * ("Stop.", " stop! ", "Opt-out", "opt  out"); a longer message ("stop by at noon") is none.
 */
export function keywordOf(body: string): "stop" | "start" | "help" | undefined {
  const word = body
    .normalize("NFKC")
    .toUpperCase()
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "")
    .replace(/[\s_-]+/g, " ");
  return Object.hasOwn(KEYWORDS, word) ? KEYWORDS[word] : undefined;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const MESSAGE_SID = /^[A-Z]{2}[0-9a-fA-F]{32}$/;

const plain = (status: number, message: string) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
const twiml = (body: string) =>
  new Response(body, {
    status: 200,
    headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store" },
  });

/**
 * The URL Twilio signed: the one configured in the Twilio console, which is the public one
 * (SITE_URL), never the request's own URL: behind Fly's proxy the app sees http:// and an
 * internal host (docs/decisions/097).
 */
export const twilioWebhookUrl = () => new URL(TWILIO_WEBHOOK_PATH, getEnv().SITE_URL).href;

/**
 * An inbound text (docs/decisions/097). The body is bounded before it is read, the signature
 * checked with the package's validateRequest over the public URL and the form's parameters, and
 * only then is anything looked at. STOP & co. record an opt-out (any number, texted or not) and
 * revoke consent; START, YES & UNSTOP clear it and confirm a "Text me again"; HELP answers with the business's name and phone. Each message is
 * recorded once by its MessageSid, so a replay changes nothing.
 */
export async function receiveTwilioWebhook(request: Request): Promise<Response> {
  if (!getEnv().TWILIO_AUTH_TOKEN) return plain(404, "Not Found");
  let bytes: Uint8Array;
  try {
    bytes = await readBodyWithLimit(request, TWILIO_WEBHOOK_MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return plain(413, "Payload Too Large");
    return plain(400, "Bad Request");
  }
  let params: Record<string, string>;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    params = Object.fromEntries(new URLSearchParams(text));
  } catch {
    return plain(400, "Bad Request");
  }
  const signature = request.headers.get("X-Twilio-Signature") ?? "";
  if (!(await isValidTwilioSignature(signature, twilioWebhookUrl(), params))) {
    log.warn("texts.webhook_refused", { reason: signature ? "bad signature" : "unsigned" });
    return plain(403, "Forbidden");
  }
  const from = params.From ?? "";
  const sid = params.MessageSid ?? params.SmsSid ?? "";
  const keyword = keywordOf(params.Body ?? "");
  if (!keyword) return twiml(await messagingTwiml());
  if (!E164.test(from) || !MESSAGE_SID.test(sid)) return plain(400, "Bad Request");

  const db = await getDb();
  const fresh = await db.transaction().execute(async (trx) => {
    if (!(await recordTextReply(trx, { messageSid: sid, phone: from, keyword }))) return false;
    if (keyword === "stop") await optOutNumber(trx, from);
    if (keyword === "start") {
      await clearOptOut(trx, from);
      // The answer to "Text me again": the number itself confirms, so consent is recorded anew
      // for the customers who asked (decision 109). A START nobody asked for opts the number in;
      // texts resume once its customer ticks "Text me" again.
      const now = new Date();
      await grantTextConsent(trx, await confirmOptInRequests(trx, from, now), from, now);
    }
    return true;
  });
  log.info("texts.reply", { keyword, replay: !fresh });
  if (keyword !== "help") {
    // Twilio's own opt-out handling answers STOP and START itself: no second message here.
    return twiml(await messagingTwiml());
  }
  const settings = await getSiteSettings();
  return twiml(
    await messagingTwiml(
      `${settings.businessName}: texts about your visits. Help: call ${settings.phone} or e-mail ${settings.email}. Msg & data rates may apply. Reply STOP to opt out.`,
    ),
  );
}
