import { sendAccountEmail } from "./account-emails.server";
import { createToken, hashToken } from "./account-tokens.server";
import { insertAccountToken } from "~/models/account-token.server";
import type { Db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";

/**
 * The "Set your password" link of an account made for a customer (from their quote request,
 * decision 096). It is the reset link's twin: a random token that only its e-mail carries, its
 * SHA-256 hash in account_tokens (purpose "set-password"), single use, and sent by
 * `sendAccountEmail` after the account has committed, never stored in the outbox as text.
 */
export const SET_PASSWORD_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Stores the link's hash in the caller's transaction; the token itself goes only into the e-mail. */
export async function createSetPasswordToken(db: Db, userId: string, now = new Date()): Promise<string> {
  const token = createToken();
  await insertAccountToken(
    {
      userId,
      purpose: "set-password",
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + SET_PASSWORD_TTL_MS),
    },
    db,
  );
  return token;
}

export function setPasswordLink(token: string) {
  return new URL(`/auth/set-password?token=${encodeURIComponent(token)}`, getEnv().SITE_URL).toString();
}

/**
 * Sends the link (after the commit, like the reset link: the answer does not wait on SMTP).
 * Returns the sending promise, which never rejects, for tests that want to wait.
 */
export function sendSetPasswordEmail(input: { to: string; name: string; token: string; businessName: string }) {
  return sendAccountEmail({
    kind: "set-password",
    to: input.to,
    payload: { name: input.name, link: setPasswordLink(input.token), businessName: input.businessName },
  });
}

// Using the link: token-password.server.ts (shared with the reset link, decision 099).
