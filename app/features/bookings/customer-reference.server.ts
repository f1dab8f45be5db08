import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/utils/env.server";
import { isUuid } from "~/utils/uuid";

/**
 * "Who booked": the dashboard's calendar link carries this signed, expiring reference to the
 * customer; the calendar hands it back in its webhook (Cal.com `metadata.customer`, Calendly
 * `tracking.utm_content`). It is `<customer id>.<expiry, base 36 seconds>.<HMAC>`, the HMAC
 * under SESSION_SECRET with a purpose string of its own, so no other token of the app (the
 * quote screen's, a session's) can stand in for it (docs/decisions/042).
 */

const PURPOSE = "booking-customer-reference";
/** Long enough for a customer who keeps the calendar tab open for a while; reschedules inherit. */
export const CUSTOMER_REFERENCE_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

function signature(payload: string): string {
  return createHmac("sha256", getEnv().SESSION_SECRET).update(`${PURPOSE}:${payload}`).digest("base64url").slice(0, 32);
}

export function createCustomerReference(customerId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000 + CUSTOMER_REFERENCE_LIFETIME_SECONDS).toString(36);
  const payload = `${customerId}.${expires}`;
  return `${payload}.${signature(payload)}`;
}

/** The customer id of a valid, unexpired reference; null for anything else. */
export function readCustomerReference(token: unknown, now = Date.now()): string | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [customerId, expires, given] = parts;
  if (!isUuid(customerId) || !/^[0-9a-z]{1,10}$/.test(expires)) return null;
  const a = Buffer.from(given);
  const b = Buffer.from(signature(`${customerId}.${expires}`));
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  if (parseInt(expires, 36) * 1000 < now) return null;
  return customerId;
}
