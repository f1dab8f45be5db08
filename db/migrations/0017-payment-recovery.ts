import { sql, type Kysely } from "kysely";

// This migration's own copy of the outbox kinds (frozen, docs/decisions/003; db/enums.ts holds the
// live list): every kind before it, plus the three e-mails of a failed payment's recovery.
const OUTBOX_KINDS = [
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

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Failed payments are recovered (issue 27 item 4, docs/decisions/104).
 * - invoices carry their collection state: how many off-session charges were tried, the first and
 *   the last failure (reason, time), the day of the next try, and when the invoice's plan was
 *   paused for it (and resumed after it was paid).
 * - invoice_charge_failures: one row per failed attempt, unique per (invoice, attempt) and per
 *   Stripe PaymentIntent, so that a replayed webhook or a second report of the same failure
 *   records (and e-mails) nothing more.
 * - customer_plans.payment_hold_from: the day from which the plan's visits are skipped with the
 *   reason "payment_overdue" (null: not held). Apart from the customer's own pause (status,
 *   paused_from, paused_until), so that ending one never ends the other.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable("invoices")
    .addColumn("charge_attempts", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`charge_attempts between 0 and 100`),
    )
    .addColumn("first_failed_at", "timestamptz")
    .addColumn("last_failed_at", "timestamptz")
    .addColumn("last_failure_reason", "text", (c) => c.check(sql`length(last_failure_reason) <= 500`))
    .addColumn("next_charge_on", "date")
    .addColumn("plan_paused_at", "timestamptz")
    .addColumn("plan_resumed_at", "timestamptz")
    .execute();
  await sql`alter table invoices add constraint invoices_collection_check check (
    (first_failed_at is null) = (last_failed_at is null)
    and (plan_resumed_at is null or plan_paused_at is not null))`.execute(db);
  // The collection job: open invoices whose next try is due; and those failed long enough ago to
  // pause their plan. The admin's "Failed payments" list reads the second, newest failure first.
  await sql`create index invoices_next_charge_idx on invoices (next_charge_on, id)
    where status = 'open' and next_charge_on is not null`.execute(db);
  await sql`create index invoices_failed_idx on invoices (last_failed_at desc, id)
    where status = 'open' and first_failed_at is not null`.execute(db);

  await db.schema
    .createTable("invoice_charge_failures")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("invoice_id", "uuid", (c) => c.notNull().references("invoices.id").onDelete("cascade"))
    .addColumn("attempt", "integer", (c) => c.notNull().check(sql`attempt between 1 and 100`))
    .addColumn("payment_intent_id", "text", (c) => c.check(sql`length(payment_intent_id) between 1 and 255`))
    .addColumn("reason", "text", (c) => c.notNull().check(sql`length(reason) between 1 and 500`))
    .addColumn("failed_at", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create unique index invoice_charge_failures_attempt_key on invoice_charge_failures (invoice_id, attempt)`.execute(
    db,
  );
  await sql`create unique index invoice_charge_failures_intent_key on invoice_charge_failures (payment_intent_id)
    where payment_intent_id is not null`.execute(db);

  await db.schema.alterTable("customer_plans").addColumn("payment_hold_from", "date").execute();

  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", OUTBOX_KINDS)})`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("customer_plans").dropColumn("payment_hold_from").execute();
  await db.schema.dropTable("invoice_charge_failures").execute();
  await sql`drop index if exists invoices_failed_idx`.execute(db);
  await sql`drop index if exists invoices_next_charge_idx`.execute(db);
  await sql`alter table invoices drop constraint if exists invoices_collection_check`.execute(db);
  await db.schema
    .alterTable("invoices")
    .dropColumn("charge_attempts")
    .dropColumn("first_failed_at")
    .dropColumn("last_failed_at")
    .dropColumn("last_failure_reason")
    .dropColumn("next_charge_on")
    .dropColumn("plan_paused_at")
    .dropColumn("plan_resumed_at")
    .execute();
}
