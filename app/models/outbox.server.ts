import { randomUUID } from "node:crypto";
import { sql, type Selectable } from "kysely";
import type { OutboxAttachment, OutboxKind, OutboxStatus, OutboxTable } from "../../db/schema";
import { getDb, type Db } from "~/utils/db.server";

export type OutboxMessage = Selectable<OutboxTable>;

export type NewOutboxMessage = {
  kind: OutboxKind;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  replyTo?: string | null;
  attachments?: OutboxAttachment[];
  dedupeKey?: string | null;
  relatedId?: string | null;
  status: Extract<OutboxStatus, "pending" | "skipped">;
  /** Not before this time (a text held until the morning); now by default. */
  nextAttemptAt?: Date;
  /** Why a row stored as skipped was not sent. */
  lastError?: string | null;
  /** One of many queued at once: the workers take every other due message first. */
  bulk?: boolean;
  /** Dropped, never sent, after this (a time-bound message: "On my way"). */
  expiresAt?: Date | null;
  /** The customer a text is for, whose consent is checked again when it is sent. */
  recipientId?: string | null;
};

const rowOf = (message: NewOutboxMessage) => ({
  kind: message.kind,
  to_address: message.to,
  reply_to: message.replyTo ?? null,
  subject: message.subject,
  text_body: message.text,
  html_body: message.html ?? null,
  attachments: JSON.stringify(message.attachments ?? []),
  dedupe_key: message.dedupeKey ?? null,
  related_id: message.relatedId ?? null,
  status: message.status,
  ...(message.nextAttemptAt ? { next_attempt_at: message.nextAttemptAt } : {}),
  ...(message.lastError ? { last_error: message.lastError } : {}),
  ...(message.bulk ? { bulk: true } : {}),
  ...(message.expiresAt ? { expires_at: message.expiresAt } : {}),
  ...(message.recipientId ? { recipient_id: message.recipientId } : {}),
});

/** One row; a repeated dedupe key stores nothing and answers undefined. */
export async function insertOutboxMessage(db: Db, message: NewOutboxMessage): Promise<OutboxMessage | undefined> {
  return db
    .insertInto("outbox")
    .values(rowOf(message))
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Many rows in one statement (the billing run's e-mails of a batch); a repeated dedupe key stores
 * nothing. The messages must all set the same optional columns (one VALUES list). Answers how many
 * were stored.
 */
export async function insertOutboxMessages(db: Db, messages: readonly NewOutboxMessage[]): Promise<number> {
  if (messages.length === 0) return 0;
  const rows = await db
    .insertInto("outbox")
    .values(messages.map(rowOf))
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returning("id")
    .execute();
  return rows.length;
}

export type ClaimedOutboxMessage = OutboxMessage & { claim_token: string };

/**
 * Takes the next due message for this worker, alone, under a claim of its own: a fresh
 * `claim_token` and a lease (`locked_until`) long enough for one send. `FOR UPDATE SKIP LOCKED`
 * lets several workers claim side by side without taking the same row; a lease that ran out
 * (its worker died or stalled) lets another take the row, with a new token. `retryFailed` also
 * takes messages given up on (`npm run outbox:send`), except the ones with nothing to send (the
 * quote notifications from before the outbox, migration 0005, kept only as a record). Bulk
 * messages (the month's invoices) come after every other due one, oldest first within each.
 */
export async function claimNextOutboxMessage(options: {
  leaseMs: number;
  ignoreBackoff?: boolean;
  retryFailed?: boolean;
  /** Only rows of these kinds (the channels configured on this machine); all by default. */
  kinds?: readonly OutboxKind[];
}): Promise<ClaimedOutboxMessage | undefined> {
  const db = await getDb();
  const token = randomUUID();
  const due = options.ignoreBackoff ? sql`true` : sql`next_attempt_at <= now()`;
  const failed = options.retryFailed ? sql`(status = 'failed' and text_body <> '')` : sql`false`;
  if (options.kinds?.length === 0) return undefined;
  const ofKind = options.kinds ? sql`kind in (${sql.join(options.kinds.map((k) => sql.lit(k)))})` : sql`true`;
  const { rows } = await sql<ClaimedOutboxMessage>`
    update outbox
    set status = 'sending', claim_token = ${token},
        locked_until = now() + make_interval(secs => ${options.leaseMs / 1000}), attempts = attempts + 1
    where id = (
      select id from outbox
      where ((status = 'pending' and ${due}) or (status = 'sending' and locked_until < now()) or ${failed})
        and ${ofKind}
      order by bulk, next_attempt_at, id
      limit 1
      for update skip locked
    )
    returning *`.execute(db);
  return rows[0];
}

/** Extends this worker's lease on one row; false when the claim is no longer its own. */
export async function renewOutboxClaim(id: string, token: string, leaseMs: number) {
  const db = await getDb();
  const result = await db
    .updateTable("outbox")
    .set({ locked_until: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where("id", "=", id)
    .where("claim_token", "=", token)
    .where("status", "=", "sending")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sent, written only by the holder of the claim; false when another worker holds it now. */
export async function markOutboxSent(id: string, token: string) {
  const db = await getDb();
  const result = await db
    .updateTable("outbox")
    .set({ status: "sent", sent_at: new Date(), locked_until: null, claim_token: null, last_error: null })
    .where("id", "=", id)
    .where("claim_token", "=", token)
    .where("status", "=", "sending")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A failed attempt: back to pending at `retryAt`, or failed for good when there is none. Written
 * only by the holder of the claim, so a late failure never re-queues a message sent meanwhile.
 */
export async function markOutboxAttemptFailed(id: string, token: string, error: string, retryAt: Date | null) {
  const db = await getDb();
  const result = await db
    .updateTable("outbox")
    .set({
      status: retryAt ? "pending" : "failed",
      last_error: error.slice(0, 1000),
      locked_until: null,
      claim_token: null,
      ...(retryAt ? { next_attempt_at: retryAt } : {}),
    })
    .where("id", "=", id)
    .where("claim_token", "=", token)
    .where("status", "=", "sending")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Puts a claimed message back to wait until `until` without counting the attempt (a text outside
 * the hours texts may be sent). Written only by the holder of the claim.
 */
export async function deferOutboxMessage(id: string, token: string, until: Date) {
  const db = await getDb();
  const result = await db
    .updateTable("outbox")
    .set({
      status: "pending",
      next_attempt_at: until,
      attempts: sql<number>`greatest(attempts - 1, 0)`,
      locked_until: null,
      claim_token: null,
    })
    .where("id", "=", id)
    .where("claim_token", "=", token)
    .where("status", "=", "sending")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A claimed message that must never be sent (a text to a number that opted out since). */
export async function markOutboxSkipped(id: string, token: string, reason: string, trx?: Db) {
  const db = trx ?? (await getDb());
  const result = await db
    .updateTable("outbox")
    .set({ status: "skipped", last_error: reason.slice(0, 1000), locked_until: null, claim_token: null })
    .where("id", "=", id)
    .where("claim_token", "=", token)
    .where("status", "=", "sending")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Deletes up to `batch` finished messages from before `before`: sent ones by when they were sent,
 * skipped and failed ones (never sent, never retried on their own) by when they were queued. The
 * quote notifications from before the outbox (migration 0005: no text, a record only, a fixed
 * number of rows) stay, as `npm run outbox:send` leaves them alone.
 * Answers how many; the caller repeats while a whole batch went, so that no one statement holds
 * a month of invoices' rows at once.
 */
export async function deleteFinishedOutboxBefore(before: Date, batch: number) {
  const db = await getDb();
  const result = await db
    .deleteFrom("outbox")
    .where(
      "id",
      "in",
      db
        .selectFrom("outbox")
        .select("id")
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "sent"), eb("sent_at", "<", before)]),
            eb.and([
              eb("status", "in", ["skipped", "failed"]),
              eb("created_at", "<", before),
              eb("text_body", "<>", ""),
            ]),
          ]),
        )
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The e-mails about one thing (a visit), newest first, for its page. */
export async function listOutboxFor(relatedId: string, limit = 20) {
  const db = await getDb();
  return db
    .selectFrom("outbox")
    .select(["id", "kind", "to_address", "subject", "status", "attempts", "last_error", "sent_at", "created_at"])
    .where("related_id", "=", relatedId)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
}

/**
 * Whether a message of this kind was queued to this address (any case) since `since`. Takes a
 * transaction-scoped advisory lock on kind and address first, so that two transactions asking
 * about one address answer one after the other: pass the transaction that will enqueue.
 */
export async function lockAndFindRecentOutboxTo(trx: Db, kind: OutboxKind, to: string, since: Date) {
  const address = to.trim().toLowerCase();
  await sql`select pg_advisory_xact_lock(hashtextextended(${`outbox-to:${kind}:${address}`}, 0))`.execute(trx);
  const row = await trx
    .selectFrom("outbox")
    .select("id")
    .where("kind", "=", kind)
    .where(sql<string>`lower(to_address)`, "=", address)
    .where("created_at", ">", since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The status of each of these things' e-mails of one kind (a list page's column), oldest first. */
export async function outboxStatusesFor(relatedIds: string[], kind: OutboxKind) {
  if (relatedIds.length === 0) return [];
  const db = await getDb();
  return db
    .selectFrom("outbox")
    .select(["related_id", "status"])
    .where("related_id", "in", relatedIds)
    .where("kind", "=", kind)
    .orderBy("created_at")
    .execute();
}
