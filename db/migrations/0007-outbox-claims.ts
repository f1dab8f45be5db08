import { sql, type Kysely } from "kysely";

/**
 * Outbox claims per row (docs/decisions/035):
 * - `claim_token`: who holds a row that is `sending`. A worker writes "sent" or "failed" only
 *   `where claim_token = <its own>`, so a worker whose lease ran out and whose row was taken by
 *   another can no longer re-queue or fail a message the other has sent.
 * - the sent rows by `sent_at`, so that pruning the ones older than OUTBOX_KEEP_SENT_DAYS reads
 *   only those.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("outbox").addColumn("claim_token", "uuid").execute();
  // A row claimed by the old batch claim when this runs carries no token: hand it back now, so
  // that it is claimed again, with a token, rather than written by a worker that has none.
  await sql`update outbox set status = 'pending', locked_until = null where status = 'sending'`.execute(db);
  await sql`create index outbox_sent_at_idx on outbox (sent_at) where status = 'sent'`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index if exists outbox_sent_at_idx`.execute(db);
  await db.schema.alterTable("outbox").dropColumn("claim_token").execute();
}
