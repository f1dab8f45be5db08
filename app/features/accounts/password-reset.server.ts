import { sendAccountEmail } from "./account-emails.server";
import { createToken, hashToken } from "./account-tokens.server";
import { insertAccountToken } from "~/models/account-token.server";
import { findAccountById, findUserCredentials } from "~/models/account.server";
import { getEnv } from "~/utils/env.server";

export const RESET_PASSWORD_TTL_MS = 60 * 60 * 1000;

/**
 * Sends a one-hour reset link when the address has an account. An unknown address gets the
 * same work up to the mail (a token is made and hashed, the lookup is the same), and the
 * caller gives the same answer either way.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  const token = createToken();
  const tokenHash = hashToken(token);
  const user = await findUserCredentials(email);
  if (!user) return;
  const account = await findAccountById(user.id);
  if (!account) return;
  await insertAccountToken({
    userId: user.id,
    purpose: "reset-password",
    tokenHash,
    expiresAt: new Date(Date.now() + RESET_PASSWORD_TTL_MS),
  });
  const link = new URL(`/auth/reset-password?token=${encodeURIComponent(token)}`, getEnv().SITE_URL).toString();
  void sendAccountEmail({
    kind: "reset-password",
    to: account.email,
    payload: { name: account.full_name ?? "", link },
  });
}

// Using the link: token-password.server.ts (shared with the set-password link, decision 099).
