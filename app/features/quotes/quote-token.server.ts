import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/utils/env.server";

/**
 * The `?sent=` token of the quote success screen: the request's id, an expiry and an HMAC with
 * the app's secret. Only the visitor who sent the request gets it, so nobody can walk through
 * other people's requests by changing an id; the screen shows no contact details either.
 */

const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

function signature(payload: string): string {
  return createHmac("sha256", getEnv().SESSION_SECRET).update(`quote-sent:${payload}`).digest("base64url").slice(0, 32);
}

export function createQuoteSentToken(quoteId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000 + TOKEN_LIFETIME_SECONDS).toString(36);
  const payload = `${quoteId}.${expires}`;
  return `${payload}.${signature(payload)}`;
}

/** The quote id of a valid, unexpired token; null for anything else. */
export function readQuoteSentToken(token: string | null | undefined, now = Date.now()): string | null {
  if (!token || token.length > 200) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [quoteId, expires, given] = parts;
  const expected = signature(`${quoteId}.${expires}`);
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  if (parseInt(expires, 36) * 1000 < now) return null;
  return quoteId;
}
