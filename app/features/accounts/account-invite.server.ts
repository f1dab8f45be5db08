import { composeAccountEmail } from "./account-emails.server";
import { createToken, hashToken } from "./account-tokens.server";
import { insertAccountToken } from "~/models/account-token.server";
import { getDb, type Db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";

/**
 * The "Set your password" link of an account made for a customer (from their quote request,
 * decision 096). It is the reset link's twin: a random token that only its e-mail carries, its
 * SHA-256 hash in account_tokens (purpose "set-password"), single use. The e-mail goes through
 * the outbox (decision 110), queued in the transaction that makes the account, so that a lost
 * one is retried; the stored text holds a placeholder where the link goes, and the token is made
 * when the e-mail is sent (`withInviteLink`), so that the outbox never holds a usable link.
 */
export const SET_PASSWORD_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Stands in the stored text for the link, on its own line; replaced when the e-mail is sent. */
export const INVITE_LINK_PLACEHOLDER = "[the set-password link, made when this e-mail is sent]";

/** Stores the link's hash; the token itself goes only into the e-mail. */
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

/** The invitation as the outbox stores it: its text with the placeholder where the link goes. */
export function inviteEmail(input: { to: string; name: string; businessName: string }) {
  const { subject, text } = composeAccountEmail({
    kind: "set-password",
    to: input.to,
    payload: { name: input.name, link: INVITE_LINK_PLACEHOLDER, businessName: input.businessName },
  });
  return { subject, text };
}

/**
 * The stored invitation's text with a fresh link, for the account it was queued for: a new token
 * (valid 7 days from now) on every attempt, so a retry after a failed send carries a working
 * link; a token whose send failed is never seen by anyone and expires unused. The placeholder is
 * matched on a line of its own (the greeting, the one line with the customer's name, cannot hold
 * a line break).
 */
export async function withInviteLink(message: { text_body: string; related_id: string | null }, now = new Date()) {
  if (!message.related_id) throw new Error("A set-password invitation without its account");
  const token = await createSetPasswordToken(await getDb(), message.related_id, now);
  const text = message.text_body.replace(`\n${INVITE_LINK_PLACEHOLDER}\n`, `\n${setPasswordLink(token)}\n`);
  if (text === message.text_body) throw new Error("A set-password invitation without its link's place");
  return text;
}

// Using the link: token-password.server.ts (shared with the reset link, decision 099).
