import { sendAccountEmail } from "./account-emails.server";
import { createToken, hashToken } from "./account-tokens.server";
import { consumeAccountToken, findLiveAccountToken, insertAccountToken } from "~/models/account-token.server";
import { findAccountById, markEmailVerified } from "~/models/account.server";
import { getEnv } from "~/utils/env.server";

export const VERIFY_EMAIL_TTL_MS = 24 * 60 * 60 * 1000;

/** Makes a fresh 24-hour link for the account's address and sends it (after the response). */
export async function sendVerificationEmail(userId: string): Promise<boolean> {
  const account = await findAccountById(userId);
  if (!account || account.email_verified_at) return false;
  const token = createToken();
  await insertAccountToken({
    userId,
    purpose: "verify-email",
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + VERIFY_EMAIL_TTL_MS),
  });
  const link = new URL(`/auth/verify-email?token=${encodeURIComponent(token)}`, getEnv().SITE_URL).toString();
  void sendAccountEmail({ kind: "verify-email", to: account.email, payload: { name: account.full_name ?? "", link } });
  return true;
}

/** Whether a verification link can still be used (the page shows its button); changes nothing. */
export async function isVerifyTokenLive(token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  return Boolean(await findLiveAccountToken("verify-email", hashToken(token)));
}

/** Uses a verification link (the page's POST); the id of the account it verified, or null for a used, expired or unknown link. */
export async function verifyEmailWithToken(token: string): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const userId = await consumeAccountToken("verify-email", hashToken(token));
  if (userId) await markEmailVerified(userId);
  return userId;
}
