import { inviteEmail } from "./account-invite.server";
import { enqueueEmail } from "~/features/outbox/outbox.server";
import type { Db } from "~/utils/db.server";

/**
 * Queues the "Set your password" invitation of a new account in the caller's transaction (the
 * one that makes the account), so that both commit or neither does, and a lost one is retried
 * by the outbox (decision 110). One per account (its dedupe key). Its link is made when it is sent.
 */
export function enqueueSetPasswordEmail(
  db: Db,
  input: { userId: string; to: string; name: string; businessName: string },
) {
  const { subject, text } = inviteEmail(input);
  return enqueueEmail(db, {
    kind: "account_invite",
    to: input.to,
    subject,
    text,
    relatedId: input.userId,
    dedupeKey: `account-invite:${input.userId}`,
  });
}
