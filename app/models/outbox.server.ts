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
};

/** One row; a repeated dedupe key stores nothing and answers undefined. */
export async function insertOutboxMessage(db: Db, message: NewOutboxMessage): Promise<OutboxMessage | undefined> {
  return db
    .insertInto("outbox")
    .values({
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
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Takes up to `limit` due messages for this worker: `FOR UPDATE SKIP LOCKED` lets several
 * workers (machines, processes) claim side by side without ever taking the same row, and
 * `locked_until` hands a row back if its worker died mid-send.
 */
export async function claimOutboxMessages(options: { limit: number; lockMs: number; ignoreBackoff?: boolean }) {
  const db = await getDb();
  const lockUntil = new Date(Date.now() + options.lockMs);
  const due = options.ignoreBackoff ? sql`true` : sql`next_attempt_at <= now()`;
  const { rows } = await sql<OutboxMessage>`
    update outbox set status = 'sending', locked_until = ${lockUntil}, attempts = attempts + 1
    where id in (
      select id from outbox
      where ((status = 'pending' and ${due}) or (status = 'sending' and locked_until < now()))
      order by next_attempt_at, id
      limit ${options.limit}
      for update skip locked
    )
    returning *`.execute(db);
  return rows;
}

export async function markOutboxSent(id: string) {
  const db = await getDb();
  await db
    .updateTable("outbox")
    .set({ status: "sent", sent_at: new Date(), locked_until: null, last_error: null })
    .where("id", "=", id)
    .execute();
}

/** A failed attempt: back to pending at `retryAt`, or failed for good when there is none. */
export async function markOutboxAttemptFailed(id: string, error: string, retryAt: Date | null) {
  const db = await getDb();
  await db
    .updateTable("outbox")
    .set({
      status: retryAt ? "pending" : "failed",
      last_error: error.slice(0, 1000),
      locked_until: null,
      ...(retryAt ? { next_attempt_at: retryAt } : {}),
    })
    .where("id", "=", id)
    .execute();
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
