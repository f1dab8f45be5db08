import { composeAccountEmail } from "./account-emails.server";
import { INVITE_LINK_PLACEHOLDER, inviteEmail } from "./account-invite.server";
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

/**
 * A staff invitation from the Staff page (decision 123): the same outbox kind and link as the
 * customer's, so the outbox makes its link when it is sent; one per invitation (an owner may
 * invite again after the first link expired), in the transaction that makes the account.
 */
export function enqueueStaffInviteEmail(
  db: Db,
  input: { userId: string; to: string; name: string; businessName: string; roleLabel: string; invitedAt: Date },
) {
  const { subject, text } = composeAccountEmail({
    kind: "staff-invite",
    to: input.to,
    payload: {
      name: input.name,
      link: INVITE_LINK_PLACEHOLDER,
      businessName: input.businessName,
      roleLabel: input.roleLabel,
    },
  });
  return enqueueEmail(db, {
    kind: "account_invite",
    to: input.to,
    subject,
    text,
    relatedId: input.userId,
    dedupeKey: `staff-invite:${input.userId}:${input.invitedAt.getTime()}`,
  });
}
