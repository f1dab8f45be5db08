import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The two calendars' webhook signatures, checked over the raw bytes before anything is parsed
 * (docs/decisions/041). Both are HMAC-SHA256; no well-kept library covers both schemes, so
 * this is node:crypto with a constant-time comparison.
 */

/** What Cal.com sends in the signature header when its webhook has no secret. */
export const CAL_COM_NO_SECRET = "no-secret-provided";
export const CAL_COM_SIGNATURE_HEADER = "X-Cal-Signature-256";
export const CALENDLY_SIGNATURE_HEADER = "Calendly-Webhook-Signature";
/** Calendly signs `t`; a signature older than this is a replay (Calendly's own advice). */
export const CALENDLY_TOLERANCE_SECONDS = 3 * 60;

const HEX_SHA256 = /^[0-9a-f]{64}$/;

function hmacHex(secret: string, ...parts: Uint8Array[]): string {
  const hmac = createHmac("sha256", secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest("hex");
}

/** Both are 64 lowercase hex characters, so equal lengths are guaranteed before comparing. */
function sameHex(given: string, expected: string): boolean {
  if (!HEX_SHA256.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, "hex"), Buffer.from(expected, "hex"));
}

/** Cal.com: `X-Cal-Signature-256` is the lowercase hex HMAC-SHA256 of the raw body. */
export function verifyCalComSignature(rawBody: Uint8Array, header: string | null, secret: string): boolean {
  if (!header || header === CAL_COM_NO_SECRET) return false;
  return sameHex(header.trim(), hmacHex(secret, rawBody));
}

export function signCalCom(rawBody: Uint8Array | string, secret: string): string {
  return hmacHex(secret, typeof rawBody === "string" ? Buffer.from(rawBody) : rawBody);
}

export type CalendlyVerification = { ok: true } | { ok: false; reason: "missing" | "malformed" | "stale" | "mismatch" };

/**
 * Calendly: `Calendly-Webhook-Signature: t=<unix seconds>,v1=<hex>`, v1 = HMAC-SHA256 of
 * `"<t>.<raw body>"`. A `t` more than three minutes away from now is refused.
 */
export function verifyCalendlySignature(
  rawBody: Uint8Array,
  header: string | null,
  signingKey: string,
  now = Date.now(),
): CalendlyVerification {
  if (!header) return { ok: false, reason: "missing" };
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [key, ...rest] = part.trim().split("=");
    const value = rest.join("=");
    if (key === "t") t = value;
    else if (key === "v1") v1.push(value);
  }
  if (!t || !/^\d{1,12}$/.test(t) || v1.length === 0) return { ok: false, reason: "malformed" };
  if (Math.abs(now / 1000 - Number(t)) > CALENDLY_TOLERANCE_SECONDS) return { ok: false, reason: "stale" };
  const expected = hmacHex(signingKey, Buffer.from(`${t}.`), rawBody);
  return v1.some((candidate) => sameHex(candidate, expected)) ? { ok: true } : { ok: false, reason: "mismatch" };
}

export function signCalendly(rawBody: Uint8Array | string, signingKey: string, now = Date.now()): string {
  const t = Math.floor(now / 1000).toString();
  const body = typeof rawBody === "string" ? Buffer.from(rawBody) : rawBody;
  return `t=${t},v1=${hmacHex(signingKey, Buffer.from(`${t}.`), body)}`;
}
