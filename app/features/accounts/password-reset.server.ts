import { sendAccountEmail } from "./account-emails.server";
import { createToken, hashToken } from "./account-tokens.server";
import { hashPassword } from "./password.server";
import { consumeAccountToken, findLiveAccountToken, insertAccountToken } from "~/models/account-token.server";
import { findAccountById, findUserCredentials, replacePasswordAndEndSessions } from "~/models/account.server";
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

/** Whether a reset link can still be used (the page shows the form or says it expired). */
export async function isResetTokenLive(token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  return Boolean(await findLiveAccountToken("reset-password", hashToken(token)));
}

/**
 * Uses a reset link: the new password, the address verified, every session of the account
 * ended. False when the link is used, expired or unknown (nothing changes then).
 */
export async function resetPasswordWithToken(token: string, newPassword: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  // Hash first: the token is used only when everything else is ready.
  const passwordHash = await hashPassword(newPassword);
  const userId = await consumeAccountToken("reset-password", hashToken(token));
  if (!userId) return false;
  await replacePasswordAndEndSessions(userId, passwordHash);
  return true;
}
