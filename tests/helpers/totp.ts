import { createHmac } from "node:crypto";

// An independent RFC 6238 implementation (SHA-1, 6 digits, 30 s) for tests: what an
// authenticator app would show. The app uses @epic-web/totp; agreeing with this is the check.

/** The development admin's TOTP secret (db/seed-data.ts seeds it; the README prints it). */
export { DEV_ADMIN_TOTP_SECRET } from "../../db/dev-totp";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(input: string): Buffer {
  const alphabet = BASE32;
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

/** RFC 4648 base32 without padding, as authenticator apps read secrets. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
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
