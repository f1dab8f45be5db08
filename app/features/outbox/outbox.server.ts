import type { OutboxAttachment } from "../../../db/schema";
import type { OutboxKind } from "./outbox-constants";
import { withoutMentions } from "./attachment-mentions.server";
import { getSiteSettings } from "~/content/content.server";
import { withInviteLink } from "~/features/accounts/account-invite.server";
import { emailPhoto, UnreadablePhotoError } from "./email-photo.server";
import { wakeOutboxWorkerAfterCommit } from "./outbox-wake.server";
import { OUTBOX_KINDS } from "./outbox-constants";
import { nextTextTime } from "./text-hours";
import {
  isOptInConfirmation,
  isTextKind,
  MESSAGE_EXPIRED,
  optOutNumber,
  TEXT_ALREADY_OPTED_IN,
  TEXT_EXPIRED_BEFORE_HOURS,
  TEXT_NO_CONSENT,
  TEXT_OPTED_OUT,
  TEXT_UNSUBSCRIBED_AT_TWILIO,
  textNumberRefused,
} from "./texts.server";
import {
  claimNextOutboxMessage,
  deferOutboxMessage,
  deleteFinishedOutboxBefore,
  insertOutboxMessage,
  insertOutboxMessages,
  markOutboxAttemptFailed,
  markOutboxSent,
  markOutboxSkipped,
  renewOutboxClaim,
  type ClaimedOutboxMessage,
} from "~/models/outbox.server";
import { isOptedOut } from "~/models/text-opt-out.server";
import { hasTextConsent } from "~/models/yard-profile.server";
import { getDb, type Db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { errorFields, log } from "~/utils/logger.server";
import { isMailConfigured, sendMail, type OutgoingMail } from "~/utils/mailer.server";
import { getStorage } from "~/utils/storage.server";
import { isTextConfigured, isTwilioUnsubscribed, sendText, twilioUnreachableNumberCode } from "~/utils/texts.server";

/**
 * The product's one e-mail outbox (docs/decisions/031). A capability never sends mail itself: it
 * stores the message with `enqueueEmail`, in the same transaction as the change it reports, and
 * the worker sends it later, outside the request, retrying with backoff.
 */
export type EmailToEnqueue = {
  kind: OutboxKind;
  to: string;
  subject: string;
  /** Plain text is always sent; `html` is the optional alternative. */
  text: string;
  html?: string;
  replyTo?: string;
  /** Storage keys (app/utils/storage.server.ts), read when the message is sent. */
  attachments?: OutboxAttachment[];
  /** The same key twice stores one message (e.g. `visit-completed:<id>:<n>`). */
  dedupeKey?: string;
  /** What the message is about, so its page can show the e-mail's status. */
  relatedId?: string;
  /** A time-bound message ("On my way"): dropped, never sent, once this has passed. */
  expiresAt?: Date;
};

/**
 * Stores one e-mail to be sent. Pass the transaction of the change the e-mail reports, so that
 * both commit or neither does. Without SMTP_URL the row is kept as 'skipped' (never sent).
 * Answers undefined when `dedupeKey` was used before.
 */
export async function enqueueEmail(db: Db, email: EmailToEnqueue) {
  const row = await insertOutboxMessage(db, {
    kind: email.kind,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    replyTo: email.replyTo,
    attachments: email.attachments,
    dedupeKey: email.dedupeKey,
    relatedId: email.relatedId,
    expiresAt: email.expiresAt,
    status: isMailConfigured() ? "pending" : "skipped",
  });
  if (row) log.info("outbox.enqueued", { outboxId: row.id, kind: row.kind, status: row.status });
  if (row?.status === "pending") wakeOutboxWorkerAfterCommit();
  return row;
}

/**
 * Stores many e-mails in one statement (the billing run's "Your invoice" e-mails of a batch), in
 * the caller's transaction like `enqueueEmail`. None may carry attachments. A repeated dedupe key
 * stores nothing; answers how many were stored. They are bulk: a month's invoices queued at once
 * are sent after any other due message (a password reset, "On my way"), never ahead of it.
 */
export async function enqueueEmails(db: Db, emails: readonly Omit<EmailToEnqueue, "attachments" | "expiresAt">[]) {
  if (emails.length === 0) return 0;
  const status = isMailConfigured() ? "pending" : "skipped";
  const stored = await insertOutboxMessages(
    db,
    emails.map((email) => ({
      kind: email.kind,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      replyTo: email.replyTo,
      dedupeKey: email.dedupeKey,
      relatedId: email.relatedId,
      status,
      bulk: true,
    })),
  );
  if (stored > 0) log.info("outbox.enqueued_many", { kind: emails[0].kind, stored, status });
  return stored;
}

/**
 * After this many attempts a message is 'failed' for good: 30 s doubling to the 4 h cap, so the
 * 14 waits between 15 attempts add up to about a day (24.3 h, up to 20 % more with jitter).
 * `npm run outbox:send` still tries a failed message once more each time it runs.
 */
export const MAX_ATTEMPTS = 15;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 4 * 60 * 60 * 1000;

/** 30 s, 1 min, 2 min, … capped at 4 h, with up to 20 % jitter so that retries spread out. */
export function nextAttemptAt(attempts: number, now = Date.now(), random = Math.random) {
  if (attempts >= MAX_ATTEMPTS) return null;
  const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return new Date(now + delay * (1 + 0.2 * random()));
}

/**
 * One claim covers one send (docs/decisions/035). A send is bounded by the mail transport's
 * timeouts (5 s connect, 5 s greeting, 15 s of silence) plus reading and resizing a photo; while
 * it runs the worker renews the lease every third of it, so only a worker that died or froze
 * loses its row, and then for at most this long.
 */
export const CLAIM_LEASE_MS = 90_000;

/** What could be attached, and what could not (its mention is taken out of the bodies). */
async function attachmentsOf(message: ClaimedOutboxMessage) {
  const storage = getStorage();
  const out: NonNullable<OutgoingMail["attachments"]> = [];
  const missing: OutboxAttachment[] = [];
  for (const attachment of message.attachments) {
    const object = await storage.get(attachment.key);
    // The photo was deleted after the e-mail was queued: send the rest (the portal link still works).
    if (!object) {
      missing.push(attachment);
      continue;
    }
    const cid = attachment.cid ? { cid: attachment.cid } : {};
    if (attachment.contentType.startsWith("image/")) {
      // A photo goes as a small JPEG, whatever was uploaded (up to 50 MB): never the original.
      try {
        const content = await emailPhoto(object.body);
        const filename = `${attachment.filename.replace(/\.[^.]*$/, "") || "photo"}.jpg`;
        out.push({ filename, contentType: "image/jpeg", content, ...cid });
      } catch (error) {
        if (!(error instanceof UnreadablePhotoError)) throw error;
        // Not a picture sharp can read: the e-mail still goes, with its link to the visit.
        log.warn("outbox.photo_unreadable", { outboxId: message.id, key: attachment.key, ...errorFields(error) });
        missing.push(attachment);
      }
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(Buffer.from(chunk));
    out.push({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: Buffer.concat(chunks),
      ...cid,
    });
  }
  return { attached: out, missing };
}

/** The e-mail as it leaves: its attachments read, and no word of one that could not be. */
async function outgoingMail(message: ClaimedOutboxMessage) {
  const { attached, missing } = await attachmentsOf(message);
  // An invitation's set-password link is made now: the outbox never stores one (decision 110).
  const text = message.kind === "account_invite" ? await withInviteLink(message) : message.text_body;
  const body = withoutMentions({ text, html: message.html_body }, missing);
  return { text: body.text, html: body.html ?? undefined, attachments: attached };
}

async function sender() {
  const env = getEnv();
  if (env.MAIL_FROM) return env.MAIL_FROM;
  const settings = await getSiteSettings();
  return { name: settings.businessName, address: settings.email };
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)) || "Unknown error";

export type DeliveryResult = { sent: number; failed: number };
/**
 * "deferred": a text held until the hours texts may be sent; "dropped": not sent and never will
 * be (its moment passed, the number replied STOP, the customer no longer agrees to texts).
 */
export type DeliveryOutcome = "sent" | "failed" | "lost" | "deferred" | "dropped";
export type DeliveryOptions = {
  /** At most this many messages in this pass. */
  limit?: number;
  /** How many sends run at once (OUTBOX_CONCURRENCY by default): each claims its own rows. */
  concurrency?: number;
  /** Also the messages still inside their backoff (an operator after an outage). */
  ignoreBackoff?: boolean;
  /** Also the messages given up on (`npm run outbox:send`). */
  retryFailed?: boolean;
  leaseMs?: number;
  /** The clock that decides whether a message may go now: text hours and expiry (tests fix it). */
  now?: () => Date;
};

/** The kinds this machine can deliver: e-mails with SMTP_URL, texts with Twilio. */
function deliverableKinds() {
  const mail = isMailConfigured();
  const text = isTextConfigured();
  if (mail && text) return undefined;
  return OUTBOX_KINDS.filter((kind) => (isTextKind(kind) ? text : mail));
}

/**
 * Why a claimed text may not go now, checked when it is sent and not only when it was queued
 * (docs/decisions/109): a "hold" until the text hours (unless its moment passes first), or a
 * reason to drop it. Undefined: it may go.
 */
async function textVerdict(
  message: ClaimedOutboxMessage,
  now: Date,
): Promise<{ hold: Date } | { drop: string } | undefined> {
  const allowedAt = nextTextTime(now);
  if (allowedAt.getTime() > now.getTime()) {
    if (message.expires_at && allowedAt.getTime() >= message.expires_at.getTime()) {
      return { drop: TEXT_EXPIRED_BEFORE_HOURS };
    }
    return { hold: allowedAt };
  }
  const db = await getDb();
  const optedOut = await isOptedOut(db, message.to_address);
  if (isOptInConfirmation(message.kind)) return optedOut ? undefined : { drop: TEXT_ALREADY_OPTED_IN };
  if (optedOut) return { drop: TEXT_OPTED_OUT };
  if (!message.recipient_id || !(await hasTextConsent(db, message.recipient_id, message.to_address))) {
    return { drop: TEXT_NO_CONSENT };
  }
  return undefined;
}

/**
 * Sends one claimed message and records the outcome, under this worker's claim only: the claim
 * is checked (and its lease renewed) before anything is sent, renewed while the send runs, and
 * "sent" or "failed" is written only where the row still carries this worker's token. "lost":
 * another worker took the row after this one's lease ran out; nothing is written here.
 */
export async function deliverClaimedEmail(
  message: ClaimedOutboxMessage,
  options: { leaseMs?: number; from?: OutgoingMail["from"]; now?: () => Date } = {},
): Promise<DeliveryOutcome> {
  const leaseMs = options.leaseMs ?? CLAIM_LEASE_MS;
  const { id, claim_token: token } = message;
  const fields = { outboxId: id, kind: message.kind, attempts: message.attempts };
  if (!(await renewOutboxClaim(id, token, leaseMs))) {
    log.warn("outbox.claim_lost", { ...fields, stage: "before send" });
    return "lost";
  }
  const now = options.now?.() ?? new Date();
  // "On my way" at 11:20 for a 10:45 – 11:15 window tells the customer nothing true: dropped.
  if (message.expires_at && message.expires_at.getTime() <= now.getTime()) {
    await markOutboxSkipped(id, token, MESSAGE_EXPIRED);
    log.info("outbox.expired", { ...fields, expiredAt: message.expires_at.toISOString() });
    return "dropped";
  }
  const text = isTextKind(message.kind);
  if (text) {
    // Neither a hold nor a drop counts as an attempt of sending.
    const verdict = await textVerdict(message, now);
    if (verdict && "hold" in verdict) {
      await deferOutboxMessage(id, token, verdict.hold);
      log.info("outbox.text_held", { ...fields, until: verdict.hold.toISOString() });
      return "deferred";
    }
    if (verdict) {
      await markOutboxSkipped(id, token, verdict.drop);
      log.info("outbox.text_dropped", { ...fields, reason: verdict.drop });
      return "dropped";
    }
  }
  const renewal = setInterval(() => {
    renewOutboxClaim(id, token, leaseMs).then(
      (held) => held || log.warn("outbox.claim_lost", { ...fields, stage: "during send" }),
      (error: unknown) => log.warn("outbox.claim_renewal_failed", { ...fields, ...errorFields(error) }),
    );
  }, leaseMs / 3);
  renewal.unref();
  let failure: unknown;
  try {
    if (text) await sendText({ to: message.to_address, body: message.text_body });
    else
      await sendMail({
        from: options.from ?? (await sender()),
        to: message.to_address,
        replyTo: message.reply_to ?? undefined,
        subject: message.subject,
        ...(await outgoingMail(message)),
      });
  } catch (error) {
    failure = error ?? new Error("Unknown error");
  } finally {
    clearInterval(renewal);
  }
  if (failure === undefined) {
    if (!(await markOutboxSent(id, token))) {
      // Sent, but another worker took the row meanwhile: it may send it again (at least once).
      log.warn("outbox.claim_lost", { ...fields, stage: "after send" });
      return "lost";
    }
    log.info("outbox.sent", fields);
    return "sent";
  }
  if (text && isTwilioUnsubscribed(failure)) {
    // Twilio holds a STOP this app never heard (a webhook lost, another app on the number):
    // retrying cannot help and texting an opted-out number must stop, so it is recorded as an
    // opt-out, in one transaction with the row's outcome.
    const db = await getDb();
    const recorded = await db.transaction().execute(async (trx) => {
      const skipped = await markOutboxSkipped(id, token, TEXT_UNSUBSCRIBED_AT_TWILIO, trx);
      if (skipped) await optOutNumber(trx, message.to_address);
      return skipped;
    });
    log.info(recorded ? "outbox.text_unsubscribed" : "outbox.claim_lost", fields);
    return recorded ? "dropped" : "lost";
  }
  const refusedCode = text ? twilioUnreachableNumberCode(failure) : null;
  if (refusedCode !== null) {
    // An invalid or landline number fails the same way every time: about 40 hours of retries
    // would only repeat the refusal, so the row is closed with Twilio's reason at once.
    const dropped = await markOutboxSkipped(id, token, textNumberRefused(refusedCode));
    log.warn(dropped ? "outbox.text_number_refused" : "outbox.claim_lost", { ...fields, code: refusedCode });
    return dropped ? "dropped" : "lost";
  }
  const retryAt = nextAttemptAt(message.attempts);
  const recorded = await markOutboxAttemptFailed(id, token, describe(failure), retryAt);
  log.warn(recorded ? "outbox.send_failed" : "outbox.claim_lost", {
    ...fields,
    gaveUp: !retryAt,
    ...(recorded ? {} : { stage: "after a failed send" }),
    ...errorFields(failure),
  });
  return recorded ? "failed" : "lost";
}

/** A pass's counts, with how many it claimed (dropped and held messages included). */
export type PassResult = DeliveryResult & { claimed: number; held: number };

/**
 * One pass of the worker: up to `limit` due messages, `concurrency` at a time (docs/decisions/
 * 109): each lane claims its next message alone, under its own claim, and sends it, so a slow
 * send holds one lane and the others go on; e-mails share the SMTP pool's connections.
 */
export async function deliverPass(options: DeliveryOptions = {}): Promise<PassResult> {
  const result: PassResult = { sent: 0, failed: 0, claimed: 0, held: 0 };
  if (!isMailConfigured() && !isTextConfigured()) return result;
  const kinds = deliverableKinds();
  const limit = options.limit ?? 20;
  const lanes = Math.max(1, Math.min(options.concurrency ?? getEnv().OUTBOX_CONCURRENCY, limit));
  const leaseMs = options.leaseMs ?? CLAIM_LEASE_MS;
  let from: Promise<OutgoingMail["from"]> | undefined;
  let started = 0;
  const lane = async () => {
    while (started < limit) {
      started += 1;
      const message = await claimNextOutboxMessage({
        leaseMs,
        ignoreBackoff: options.ignoreBackoff,
        retryFailed: options.retryFailed,
        kinds,
      });
      if (!message) return;
      result.claimed += 1;
      const mailFrom = isTextKind(message.kind) ? undefined : await (from ??= sender());
      const outcome = await deliverClaimedEmail(message, { leaseMs, from: mailFrom, now: options.now });
      if (outcome === "sent") result.sent += 1;
      if (outcome === "failed") result.failed += 1;
      if (outcome === "deferred") result.held += 1;
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return result;
}

/** One pass of the worker (see deliverPass): how many were sent and how many failed. */
export async function deliverDueEmails(options: DeliveryOptions = {}): Promise<DeliveryResult> {
  const { sent, failed } = await deliverPass(options);
  return { sent, failed };
}

/** Rows deleted per statement when the outbox is pruned. */
const PRUNE_BATCH = 5_000;

/**
 * The outbox stays bounded in every mode (docs/decisions/109): sent messages are deleted
 * OUTBOX_KEEP_SENT_DAYS (90 by default) after they were sent, skipped and failed ones that long
 * after they were queued. The queue's outbox:prune job (decision 114), so it
 * runs whether or not this machine can send anything; pending messages are never deleted.
 */
export async function pruneOutbox(now = Date.now()) {
  const days = getEnv().OUTBOX_KEEP_SENT_DAYS;
  const before = new Date(now - days * 24 * 60 * 60 * 1000);
  let deleted = 0;
  for (;;) {
    const batch = await deleteFinishedOutboxBefore(before, PRUNE_BATCH);
    deleted += batch;
    if (batch < PRUNE_BATCH) break;
  }
  if (deleted > 0) log.info("outbox.pruned", { deleted, keepDays: days });
  return deleted;
}

export { OUTBOX_DRAIN_JOB, wakeOutboxWorker } from "./outbox-wake.server";
