import { createHash, randomBytes } from "node:crypto";

/** A random token for a link or a cookie: 256 bits, URL-safe. */
export function createToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What is stored instead of a token: a database leak yields no usable link. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
