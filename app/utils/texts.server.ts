import type { Twilio } from "twilio";
import { getEnv } from "./env.server";

/** Text messages go out only when TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are set. */
export function isTextConfigured(): boolean {
  const env = getEnv();
  return Boolean(env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM);
}

type Cached = { key: string; client: Twilio };
let cached: Cached | undefined;

/**
 * The twilio package's client, made on first use only (the package is large; a machine that never
 * texts never loads it). With TWILIO_API_BASE_URL (tests only) its own RequestClient sends every
 * call to that origin instead of https://api.twilio.com: the request is the package's, unchanged.
 */
async function client(): Promise<Twilio> {
  const env = getEnv();
  if (!env.TWILIO_ACCOUNT_SID || !env.TWILIO_AUTH_TOKEN) throw new Error("Twilio is not configured");
  const key = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_API_BASE_URL ?? ""].join("|");
  if (cached?.key === key) return cached.client;
  const { default: twilio } = await import("twilio");
  const base = env.TWILIO_API_BASE_URL ? new URL(env.TWILIO_API_BASE_URL) : undefined;
  // A request that hangs must not hold the outbox's claim for long: 10 s, then a retry later.
  const http = new twilio.RequestClient({ timeout: 10_000 });
  if (base) {
    const request = http.request.bind(http);
    http.request = (opts) => {
      const uri = new URL(opts.uri);
      uri.protocol = base.protocol;
      uri.host = base.host;
      return request({ ...opts, uri: uri.href });
    };
  }
  const made = twilio(env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, { httpClient: http });
  cached = { key, client: made };
  return made;
}

/** Sends one text; rejects with Twilio's error (a RestException) when refused or unreachable. */
export async function sendText(message: { to: string; body: string }): Promise<{ sid: string }> {
  const env = getEnv();
  const from = env.TWILIO_FROM;
  if (!from) throw new Error("TWILIO_FROM is not set");
  const twilio = await client();
  const sent = await twilio.messages.create({
    to: message.to,
    body: message.body,
    ...(from.startsWith("MG") ? { messagingServiceSid: from } : { from }),
  });
  return { sid: sent.sid };
}

/** Twilio's error for a number that replied STOP to it: never retried (docs/decisions/109). */
export const TWILIO_UNSUBSCRIBED = 21610;

/** Whether a send failed because the number is unsubscribed at Twilio (a RestException 21610). */
export function isTwilioUnsubscribed(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === TWILIO_UNSUBSCRIBED;
}

/**
 * Twilio's errors for a number no message can reach (21211: not a valid phone number; 21614: not a
 * mobile number, so it cannot take texts): a retry would fail the same way, so they are not retried.
 */
export const TWILIO_UNREACHABLE_NUMBER = [21211, 21614] as const;

/** The Twilio error code of a number that cannot take texts, or null for any other failure. */
export function twilioUnreachableNumberCode(error: unknown): number | null {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return (TWILIO_UNREACHABLE_NUMBER as readonly unknown[]).includes(code) ? (code as number) : null;
}

/** The package's own check of an inbound webhook's X-Twilio-Signature (HMAC-SHA1, the auth token). */
export async function isValidTwilioSignature(signature: string, url: string, params: Record<string, string>) {
  const token = getEnv().TWILIO_AUTH_TOKEN;
  if (!token || !signature) return false;
  const { default: twilio } = await import("twilio");
  return twilio.validateRequest(token, signature, url, params);
}

/** A TwiML answer to an inbound message: a reply text, or none (the package builds and escapes it). */
export async function messagingTwiml(reply?: string): Promise<string> {
  const { default: twilio } = await import("twilio");
  const response = new twilio.twiml.MessagingResponse();
  if (reply) response.message(reply);
  return response.toString();
}
