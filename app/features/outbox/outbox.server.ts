import type { OutboxAttachment } from "../../../db/schema";
import type { OutboxKind } from "./outbox-constants";
import { getSiteSettings } from "~/content/content.server";
import {
  claimOutboxMessages,
  insertOutboxMessage,
  markOutboxAttemptFailed,
  markOutboxSent,
  type OutboxMessage,
} from "~/models/outbox.server";
import type { Db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { errorFields, log } from "~/utils/logger.server";
import { isMailConfigured, sendMail, type OutgoingMail } from "~/utils/mailer.server";
import { getStorage } from "~/utils/storage.server";

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
    status: isMailConfigured() ? "pending" : "skipped",
  });
  if (row) log.info("outbox.enqueued", { outboxId: row.id, kind: row.kind, status: row.status });
  return row;
}

/** After this many attempts a message is 'failed' for good (about a day of backoff). */
export const MAX_ATTEMPTS = 10;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 4 * 60 * 60 * 1000;

/** 30 s, 1 min, 2 min, … capped at 4 h, with up to 20 % jitter so that retries spread out. */
export function nextAttemptAt(attempts: number, now = Date.now(), random = Math.random) {
  if (attempts >= MAX_ATTEMPTS) return null;
  const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return new Date(now + delay * (1 + 0.2 * random()));
}

async function attachmentsOf(message: OutboxMessage): Promise<NonNullable<OutgoingMail["attachments"]>> {
  const storage = getStorage();
  const out: NonNullable<OutgoingMail["attachments"]> = [];
  for (const attachment of message.attachments) {
    const object = await storage.get(attachment.key);
    // The photo was deleted after the e-mail was queued: send the rest (the portal link still works).
    if (!object) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(Buffer.from(chunk));
    out.push({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: Buffer.concat(chunks),
      ...(attachment.cid ? { cid: attachment.cid } : {}),
    });
  }
  return out;
}

async function sender() {
  const env = getEnv();
  if (env.MAIL_FROM) return env.MAIL_FROM;
  const settings = await getSiteSettings();
  return { name: settings.businessName, address: settings.email };
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)) || "Unknown error";

export type DeliveryResult = { sent: number; failed: number };

/** One pass of the worker: claims due messages and sends them one by one. */
export async function deliverDueEmails(options: { limit?: number; ignoreBackoff?: boolean } = {}) {
  const result: DeliveryResult = { sent: 0, failed: 0 };
  if (!isMailConfigured()) return result;
  const claimed = await claimOutboxMessages({
    limit: options.limit ?? 20,
    lockMs: 5 * 60_000,
    ignoreBackoff: options.ignoreBackoff,
  });
  if (claimed.length === 0) return result;
  const from = await sender();
  for (const message of claimed) {
    try {
      await sendMail({
        from,
        to: message.to_address,
        replyTo: message.reply_to ?? undefined,
        subject: message.subject,
        text: message.text_body,
        html: message.html_body ?? undefined,
        attachments: await attachmentsOf(message),
      });
      await markOutboxSent(message.id);
      result.sent += 1;
      log.info("outbox.sent", { outboxId: message.id, kind: message.kind, attempts: message.attempts });
    } catch (error) {
      const retryAt = nextAttemptAt(message.attempts);
      await markOutboxAttemptFailed(message.id, describe(error), retryAt);
      result.failed += 1;
      log.warn("outbox.send_failed", {
        outboxId: message.id,
        kind: message.kind,
        attempts: message.attempts,
        gaveUp: !retryAt,
        ...errorFields(error),
      });
    }
  }
  return result;
}

const INTERVAL_MS = 15_000;
let timer: ReturnType<typeof setInterval> | undefined;
let running: Promise<void> | undefined;
let again = false;

function tick() {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    try {
      do {
        again = false;
        const { sent, failed } = await deliverDueEmails();
        // A full batch that went through: there may be more waiting.
        if (sent === 20 && failed === 0) again = true;
      } while (again);
    } catch (error) {
      log.error("outbox.worker_failed", errorFields(error));
    } finally {
      running = undefined;
    }
  })();
  return running;
}

/**
 * Starts the in-process worker once (app/background-work.server.ts). unref'd: it never keeps a
 * process alive. Every machine runs one; SKIP LOCKED keeps them from sending a row twice.
 */
export function startOutboxWorker(intervalMs = INTERVAL_MS) {
  if (timer || getEnv().NODE_ENV === "test" || !isMailConfigured()) return;
  timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
}

export function stopOutboxWorker() {
  if (timer) clearInterval(timer);
  timer = undefined;
}

/**
 * Asks the worker to look now rather than at its next interval. Call after the transaction
 * that enqueued has committed; it runs after the response, never inside the request.
 */
export function wakeOutboxWorker() {
  if (!timer) return;
  setTimeout(() => void tick(), 0).unref();
}
