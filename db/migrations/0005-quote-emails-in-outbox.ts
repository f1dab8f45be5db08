import { sql, type Kysely } from "kysely";

// Frozen (docs/decisions/003): the list as it was in 0001, for `down`.
const NOTIFICATION_STATUSES = ["pending", "sent", "failed", "skipped"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Quote e-mails move onto the outbox (docs/decisions/034): a quote request's e-mail status is
 * read from its outbox rows (`related_id`), so its own status columns and retry index go.
 *
 * What they said is kept as one outbox row per request (kind 'quote_owner', the e-mail that
 * status followed), in a final state so that nothing is ever sent from it: sent stays sent,
 * skipped stays skipped, and one not sent yet (pending or failed) becomes failed with a note,
 * because its text was never stored and the retry script that would have sent it is gone.
 * The dedupe key is the one new requests use, so no second owner e-mail can be queued for it.
 */
export async function up(db: Kysely<any>) {
  await sql`
    insert into outbox (kind, to_address, subject, text_body, dedupe_key, related_id, status, attempts,
                        last_error, next_attempt_at, sent_at, created_at)
    select 'quote_owner', '(the business)', 'Quote request notification (sent before the outbox)', '',
           'quote-owner:' || id::text, id,
           case notification_status when 'sent' then 'sent' when 'skipped' then 'skipped' else 'failed' end,
           notification_attempts,
           case when notification_status in ('pending', 'failed')
                then left(coalesce(notification_error || '; ', '') || 'not sent before e-mail moved to the outbox', 1000)
                else notification_error end,
           created_at, notified_at, created_at
    from quote_requests
    on conflict (dedupe_key) do nothing`.execute(db);

  await sql`drop index if exists quote_requests_unsent_idx`.execute(db);
  await sql`alter table quote_requests drop constraint if exists quote_requests_notification_status_check`.execute(db);
  await db.schema
    .alterTable("quote_requests")
    .dropColumn("notification_status")
    .dropColumn("notification_attempts")
    .dropColumn("notification_error")
    .dropColumn("notified_at")
    .execute();

  // One visitor confirmation per address per 24 hours: the recent ones to an address.
  await sql`create index outbox_quote_visitor_to_idx on outbox (lower(to_address), created_at desc) where kind = 'quote_visitor'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>) {
  await sql`drop index if exists outbox_quote_visitor_to_idx`.execute(db);
  await db.schema
    .alterTable("quote_requests")
    .addColumn("notification_status", "text", (c) =>
      c.notNull().defaultTo("pending").check(oneOf("notification_status", NOTIFICATION_STATUSES)),
    )
    .addColumn("notification_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("notification_error", "text")
    .addColumn("notified_at", "timestamptz")
    .execute();
  await sql`
    update quote_requests q
    set notification_status = case o.status when 'sending' then 'pending' else o.status end,
        notification_attempts = o.attempts,
        notification_error = o.last_error,
        notified_at = o.sent_at
    from outbox o
    where o.related_id = q.id and o.kind = 'quote_owner'`.execute(db);
  await sql`create index quote_requests_unsent_idx on quote_requests (created_at) where notification_status in ('pending', 'failed')`.execute(
    db,
  );
}
