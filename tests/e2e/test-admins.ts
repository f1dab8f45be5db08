import { createHash } from "node:crypto";
import { base32Encode } from "../helpers/totp";

/**
 * Admin accounts for the browser tests, each with two-step on and its own TOTP secret, made by
 * tests/e2e/seed-test-admins.ts before the test server starts. The server lets each TOTP step
 * be used once per account (claimTotpStep), so workers signing in as one shared admin take
 * each other's codes; each worker has accounts of its own instead (decision 080).
 */
export type TestAdmin = { email: string; password: string; totpSecret: string; fullName: string };

/** Worker slots (Playwright's parallelIndex, 0 … workers − 1) that have accounts. */
export const TEST_ADMIN_SLOTS = 8;
/**
 * Accounts per slot. A worker signs in with the one it used least recently, so it waits for a
 * fresh TOTP step only when it signs in more often than this within one 30-second step.
 */
export const TEST_ADMINS_PER_SLOT = 4;
export const TEST_ADMIN_PASSWORD = "e2e-admin-password";

export function testAdmin(slot: number, index: number): TestAdmin {
  const name = `e2e-admin-${slot}-${index}`;
  return {
    email: `${name}@example.com`,
    password: TEST_ADMIN_PASSWORD,
    // 20 bytes (160 bits, as RFC 4226 recommends), derived so that seeding and tests agree.
    totpSecret: base32Encode(createHash("sha1").update(name).digest()),
    fullName: `Test Admin ${slot}-${index}`,
  };
}

export const allTestAdmins = (): TestAdmin[] =>
  Array.from({ length: TEST_ADMIN_SLOTS }, (_, slot) =>
    Array.from({ length: TEST_ADMINS_PER_SLOT }, (_, index) => testAdmin(slot, index)),
  ).flat();
