import { sql, type Kysely } from "kysely";

// This migration's own copy of the outbox kinds (frozen, docs/decisions/003; db/enums.ts holds the
// live list): every kind before it (migration 0023's list and 0029's price_change), plus the
// admin's "A dispute was lost".
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
  "text_opt_in",
  "price_change",
];
const OUTBOX_KINDS = [...KINDS_BEFORE, "dispute_lost"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Disputes that end (docs/decisions/118):
 * - payments.dispute_closed_at: Stripe closed the payment's dispute (won, lost or a warning
 *   closed). A payment with disputed_at set and no close is under an open dispute, and the
 *   collection and a new card never charge its invoice; the partial index finds those few.
 * - payment_reversals.stripe_dispute_id: the lost dispute a reversal is, unique, so a replayed or
 *   repeated `charge.dispute.closed` stores nothing more. Only a lost dispute has one.
 * - the outbox kind `dispute_lost`: the e-mail that tells the admin.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table payments add column dispute_closed_at timestamptz,
    add constraint payments_dispute_closed_check check (dispute_closed_at is null or disputed_at is not null)`.execute(
    db,
  );
  await sql`create index payments_open_dispute_idx on payments (invoice_id)
    where disputed_at is not null and dispute_closed_at is null`.execute(db);
  await sql`alter table payment_reversals add column stripe_dispute_id text unique
    constraint payment_reversals_dispute_id_check check (stripe_dispute_id ~ '^(du|dp)_[A-Za-z0-9_]{1,250}$'),
    add constraint payment_reversals_dispute_kind_check check (stripe_dispute_id is null or kind = 'dispute_lost')`.execute(
    db,
  );
  // The Billing tab's "Disputes lost" count and list read only these rows, newest first.
  await sql`create index payment_reversals_dispute_lost_idx on payment_reversals (created_at desc, id)
    where kind = 'dispute_lost'`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", OUTBOX_KINDS)})`.execute(db);
}

/** Back to migration 0029's list: the admin's dispute e-mails become "other" (kept as a record). */
export async function down(db: Kysely<any>) {
  await sql`update outbox set kind = 'other' where kind = 'dispute_lost'`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", KINDS_BEFORE)})`.execute(db);
  await sql`drop index if exists payment_reversals_dispute_lost_idx`.execute(db);
  await sql`alter table payment_reversals drop constraint payment_reversals_dispute_kind_check,
    drop column stripe_dispute_id`.execute(db);
  await sql`drop index if exists payments_open_dispute_idx`.execute(db);
  await sql`alter table payments drop constraint payments_dispute_closed_check, drop column dispute_closed_at`.execute(
    db,
  );
}
