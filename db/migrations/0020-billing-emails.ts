import { sql, type Kysely } from "kysely";

// This migration's own copy of the outbox kinds (frozen, docs/decisions/003; db/enums.ts holds the
// live list): every kind before it (migration 0017's list), plus billing's two everyday e-mails.
const KINDS_BEFORE = [
  "visit_completed",
  "visit_missed",
  "quote_owner",
  "quote_visitor",
  "account_verification",
  "account_password_reset",
  "plan_customer",
  "plan_owner",
  "account_invite",
  "other",
  "on_my_way",
  "text_on_my_way",
  "payment_failed",
  "payment_paused",
  "payment_resumed",
];
const OUTBOX_KINDS = [...KINDS_BEFORE, "invoice_issued", "payment_receipt"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * The customer is e-mailed when an invoice is issued ("Your invoice") and when a payment is
 * recorded (the receipt): two outbox kinds (docs/decisions/106), deduplicated by their keys.
 * The billing run queues ~100k invoice e-mails at once: they are `bulk`, and the workers take
 * every other due message first (a password reset never waits behind a month's invoices), so the
 * due index leads with it.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", OUTBOX_KINDS)})`.execute(db);
  await db.schema
    .alterTable("outbox")
    .addColumn("bulk", "boolean", (col) => col.notNull().defaultTo(false))
    .execute();
  await sql`drop index if exists outbox_due_idx`.execute(db);
  await sql`create index outbox_due_idx on outbox (bulk, next_attempt_at, id) where status in ('pending', 'sending')`.execute(
    db,
  );
}

/**
 * Back to migration 0017's list. The rows of the two kinds would fail it: they become "other",
 * which keeps the record and still sends what is pending.
 */
export async function down(db: Kysely<any>) {
  await sql`drop index if exists outbox_due_idx`.execute(db);
  await sql`create index outbox_due_idx on outbox (next_attempt_at) where status in ('pending', 'sending')`.execute(db);
  await db.schema.alterTable("outbox").dropColumn("bulk").execute();
  await sql`update outbox set kind = 'other' where kind in ('invoice_issued', 'payment_receipt')`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", KINDS_BEFORE)})`.execute(db);
}
