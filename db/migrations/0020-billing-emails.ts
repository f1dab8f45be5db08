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
 * recorded (the receipt): two outbox kinds (docs/decisions/106). Nothing else changes: the e-mails
 * are outbox rows like every other, deduplicated by their keys.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", OUTBOX_KINDS)})`.execute(db);
}

/**
 * Back to migration 0017's list. The rows of the two kinds would fail it: they become "other",
 * which keeps the record and still sends what is pending.
 */
export async function down(db: Kysely<any>) {
  await sql`update outbox set kind = 'other' where kind in ('invoice_issued', 'payment_receipt')`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", KINDS_BEFORE)})`.execute(db);
}
