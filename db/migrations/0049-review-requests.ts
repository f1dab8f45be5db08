import { sql, type Kysely } from "kysely";

// This migration's own copy of the outbox kinds (frozen, docs/decisions/003; db/enums.ts holds the
// live list): every kind before it (migration 0030's list), plus the review request and the
// private feedback sent to the owner (decision 133).
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
  "dispute_lost",
];
const OUTBOX_KINDS = [...KINDS_BEFORE, "review_request", "customer_feedback"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Review requests (issue 37 item 4, decision 133):
 * - `review_requests`: at most one per customer, ever (the primary key), with the completed visit
 *   that earned it;
 * - `customer_feedback`: what a customer wrote through the private "Tell us what to improve" link
 *   (bounded text); a word in it within a week holds back the review request;
 * - the outbox kinds `review_request` (to the customer) and `customer_feedback` (to the owner).
 */
export async function up(db: Kysely<any>) {
  await sql`create table review_requests (
    customer_id uuid primary key references users (id) on delete cascade,
    visit_id uuid references services (id) on delete set null,
    requested_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table customer_feedback (
    id uuid primary key default gen_random_uuid(),
    customer_id uuid not null references users (id) on delete cascade,
    message text not null constraint customer_feedback_message_check check (length(message) between 1 and 2000),
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index customer_feedback_by_customer_idx on customer_feedback (customer_id, created_at)`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", OUTBOX_KINDS)})`.execute(db);
}

/** Back to migration 0030's list: the review e-mails become "other" (kept as a record). */
export async function down(db: Kysely<any>) {
  await sql`update outbox set kind = 'other' where kind in ('review_request', 'customer_feedback')`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", KINDS_BEFORE)})`.execute(db);
  await sql`drop table if exists customer_feedback`.execute(db);
  await sql`drop table if exists review_requests`.execute(db);
}
