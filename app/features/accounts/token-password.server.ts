import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { hashToken } from "./account-tokens.server";
import { ResetPasswordSchema } from "./auth-schemas";
import { hashPassword } from "./password.server";
import { consumeAccountToken, findLiveAccountToken } from "~/models/account-token.server";
import { replacePasswordAndEndSessions } from "~/models/account.server";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { readFormData } from "~/utils/form-data.server";
import { TOKEN_PAGE_HEADERS } from "~/utils/token-page";

/**
 * The one workflow behind a link that sets a password (decision 099): the reset link
 * (/auth/reset-password) and the "Set your password" link of an account made from a quote
 * request (/auth/set-password, decision 096). Both are a random token that only its e-mail
 * carries, its SHA-256 hash in account_tokens under its own purpose, single use. The purpose is
 * always checked: a reset token never opens the set-password page, nor the other way round.
 */
export type PasswordTokenPurpose = "reset-password" | "set-password";

/** Longer than any token we make: refused without a lookup. */
const MAX_TOKEN_LENGTH = 200;

/** Whether the link can still be used (the page shows the form, or says it expired). */
export async function isPasswordTokenLive(purpose: PasswordTokenPurpose, token: string): Promise<boolean> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return false;
  return Boolean(await findLiveAccountToken(purpose, hashToken(token)));
}

/**
 * Uses the link: the new password, the address verified (they opened the e-mail), every session
 * of the account ended. The account's id, or null when the link is used, expired, unknown or of
 * the other purpose (nothing changes then).
 */
export async function setPasswordWithToken(
  purpose: PasswordTokenPurpose,
  token: string,
  newPassword: string,
): Promise<string | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  // Hash first: the token is spent only when everything else is ready.
  const passwordHash = await hashPassword(newPassword);
  const userId = await consumeAccountToken(purpose, hashToken(token));
  if (!userId) return null;
  await replacePasswordAndEndSessions(userId, passwordHash);
  return userId;
}

/**
 * The page's loader. The token stays in the URL only for the page; the form posts it in the
 * body. A GET or HEAD (a mail scanner) only reads whether the link is live; the password is set
 * by the POST. A dead link is 410 with no form, so no browser script either.
 */
export async function loadTokenPasswordPage(request: Request, purpose: PasswordTokenPurpose) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const live = await isPasswordTokenLive(purpose, token);
  return json(
    { token: live ? token : null, script: live ? browserScriptUrl("auth-forms") : null },
    { status: live ? 200 : 410, headers: TOKEN_PAGE_HEADERS },
  );
}

/** A refusal is Conform's `submission.reply()` (never with the password: `hideFields`). */
export type TokenPasswordData = { expired: boolean; result?: SubmissionResult<string[]> };

/**
 * The page's action (a plain form post; it works with JavaScript off): 400 with the field's
 * error for a bad password (the link stays live), 410 for a dead link, otherwise what
 * `onPasswordSet` answers for the account. `onPasswordSet` may answer null when the account is
 * gone meanwhile: that is the dead-link answer too.
 */
export async function submitTokenPassword(
  request: Request,
  purpose: PasswordTokenPurpose,
  onPasswordSet: (userId: string) => Promise<Response | null>,
): Promise<Response> {
  const form = await readFormData(request);
  const token = String(form.get("token") ?? "");
  const submission = parseWithZod(form, { schema: ResetPasswordSchema });
  if (submission.status !== "success") {
    return json<TokenPasswordData>(
      { expired: false, result: submission.reply({ hideFields: ["password", "token"] }) },
      { status: 400 },
    );
  }
  const userId = await setPasswordWithToken(purpose, token, submission.value.password);
  const answer = userId ? await onPasswordSet(userId) : null;
  return answer ?? json<TokenPasswordData>({ expired: true }, { status: 410 });
}
