import { sql, type Kysely } from "kysely";

// This migration's own copy of the outbox kinds (frozen, docs/decisions/003; db/enums.ts holds the
// live list): every kind before it (migration 0020's list), plus the "Text me again" confirmation.
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
  "invoice_issued",
  "payment_receipt",
];
const OUTBOX_KINDS = [...KINDS_BEFORE, "text_opt_in"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Messages with a deadline, and the way back in after STOP (docs/decisions/109).
 * - outbox.expires_at: a time-bound message ("On my way": the end of its arrival window) is
 *   dropped, never sent, after it.
 * - outbox.recipient_id: the customer a text is for, whose consent is checked again when it is
 *   sent (null for e-mails; set null when the account goes, which then means no consent). The
 *   partial index serves the foreign key's ON DELETE and costs nothing for e-mails.
 * - text_opt_in_requests: "Text me again" on Your Yard: the customer asked, a confirmation text
 *   went to the number, and only its START/YES reply opts the number in again.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable("outbox")
    .addColumn("expires_at", "timestamptz")
    .addColumn("recipient_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .execute();
  await sql`create index outbox_recipient_idx on outbox (recipient_id) where recipient_id is not null`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", OUTBOX_KINDS)})`.execute(db);
  await db.schema
    .createTable("text_opt_in_requests")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("phone", "text", (c) => c.notNull().check(sql`phone ~ '^\\+[1-9][0-9]{6,14}$'`))
    .addColumn("requested_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("confirmed_at", "timestamptz")
    .execute();
  await sql`create index text_opt_in_requests_phone_idx on text_opt_in_requests (phone, expires_at)`.execute(db);
  await sql`create index text_opt_in_requests_user_idx on text_opt_in_requests (user_id, requested_at)`.execute(db);
}

/** Back to migration 0020's list: the confirmation texts become "other" (kept as a record). */
export async function down(db: Kysely<any>) {
  await db.schema.dropTable("text_opt_in_requests").execute();
  await sql`update outbox set kind = 'other' where kind = 'text_opt_in'`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", KINDS_BEFORE)})`.execute(db);
  await sql`drop index if exists outbox_recipient_idx`.execute(db);
  await db.schema.alterTable("outbox").dropColumn("recipient_id").dropColumn("expires_at").execute();
}
