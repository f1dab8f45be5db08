import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signCalCom, signCalendly, verifyCalComSignature, verifyCalendlySignature } from "./webhook-signatures.server";

const body = new TextEncoder().encode('{"triggerEvent":"BOOKING_CREATED"}');

describe("Cal.com signatures", () => {
  it("accept the lowercase hex HMAC-SHA256 of the raw body, and nothing else", () => {
    const expected = createHmac("sha256", "secret-1").update(body).digest("hex");
    expect(signCalCom(body, "secret-1")).toBe(expected);
    expect(verifyCalComSignature(body, expected, "secret-1")).toBe(true);
    expect(verifyCalComSignature(body, expected, "secret-2")).toBe(false);
    expect(verifyCalComSignature(body, expected.toUpperCase(), "secret-1")).toBe(false);
    expect(verifyCalComSignature(body, expected.slice(0, 63), "secret-1")).toBe(false);
    expect(verifyCalComSignature(body, "no-secret-provided", "secret-1")).toBe(false);
    expect(verifyCalComSignature(body, null, "secret-1")).toBe(false);
    expect(verifyCalComSignature(new TextEncoder().encode("{}"), expected, "secret-1")).toBe(false);
  });
});

describe("Calendly signatures", () => {
  const now = 1_800_000_000_000;
  it("accept v1 = HMAC-SHA256 of '<t>.<raw body>' within three minutes", () => {
    const t = String(now / 1000);
    const v1 = createHmac("sha256", "key-1").update(`${t}.`).update(body).digest("hex");
    expect(signCalendly(body, "key-1", now)).toBe(`t=${t},v1=${v1}`);
    expect(verifyCalendlySignature(body, `t=${t},v1=${v1}`, "key-1", now)).toEqual({ ok: true });
    expect(verifyCalendlySignature(body, `t=${t},v1=${v1}`, "key-1", now + 179_000)).toEqual({ ok: true });
    expect(verifyCalendlySignature(body, `t=${t},v1=${v1}`, "key-1", now + 181_000)).toEqual({
      ok: false,
      reason: "stale",
    });
    expect(verifyCalendlySignature(body, `t=${t},v1=${v1}`, "key-2", now)).toEqual({ ok: false, reason: "mismatch" });
    expect(verifyCalendlySignature(body, `v1=${v1}`, "key-1", now)).toEqual({ ok: false, reason: "malformed" });
    expect(verifyCalendlySignature(body, null, "key-1", now)).toEqual({ ok: false, reason: "missing" });
  });
});
