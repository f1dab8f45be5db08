import { createHmac } from "node:crypto";

// An independent RFC 6238 implementation (SHA-1, 6 digits, 30 s) for tests: what an
// authenticator app would show. The app uses @epic-web/totp; agreeing with this is the check.

/** The development admin's TOTP secret (db/seed-data.ts seeds it; the README prints it). */
export { DEV_ADMIN_TOTP_SECRET } from "../../db/dev-totp";

function base32Decode(input: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of input.replace(/=+$/, "").toUpperCase()) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`Not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The code of one 30-second step (a step is floor(unix seconds / 30)). */
export function totpForStep(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = digest[digest.length - 1] & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, "0");
}

export const totpStep = (atMs = Date.now()) => Math.floor(atMs / 1000 / 30);

/** The code an authenticator app shows at `atMs` (now by default). */
export const totpCode = (secret: string, atMs = Date.now()) => totpForStep(secret, totpStep(atMs));
