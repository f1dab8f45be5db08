import { sql, type Kysely } from "kysely";

// Frozen (docs/decisions/003): the lists below are stated as they were when this migration first
// ran; db/constants-match-checks.test.ts compares the live lists in db/enums.ts with them.
const INVOICE_STATUSES = ["draft", "open", "paid", "void", "uncollectible"];
const INVOICE_LINE_KINDS = ["plan_month", "prorated_month", "one_time_service", "skip_credit"];
const PAYMENT_METHODS = ["cash", "check", "card_in_person", "other", "stripe"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Billing (issue 27, docs/decisions/100–102): invoices made from customer plans, their lines,
 * the payments recorded against them and the refunds of those payments. Money is integer cents
 * everywhere; the database itself refuses what must never be stored:
 *  - an invoice's dates agree with its state (CHECKs), and (plan, period) is unique, so a billing
 *    run that runs twice, or two at once, makes one invoice;
 *  - numbers are unique ("2027-000123"), allocated from a per-year counter row locked by the
 *    transaction that inserts the invoices (no gaps, no race);
 *  - a visit is billed once as a one-time service and credited once as a skip (partial unique
 *    indexes on the line's visit id);
 *  - a payment's idempotency key is unique (a double press makes one payment), and a payment's
 *    refunded total can never exceed its amount (a CHECK on the running total the refund
 *    updates in its own transaction).
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("invoice_number_counters")
    .addColumn("year", "integer", (c) => c.primaryKey().check(sql`year between 2000 and 9999`))
    .addColumn("last_number", "integer", (c) => c.notNull().check(sql`last_number between 0 and 999999`))
    .execute();

  await db.schema
    .createTable("invoices")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("number", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`number ~ '^[0-9]{4}-[0-9]{6}$'`),
    )
    // Financial records outlive nothing they point at: a customer or plan with invoices stays.
    .addColumn("customer_id", "uuid", (c) => c.notNull().references("users.id").onDelete("restrict"))
    // Null: an invoice of one-time services for a customer without a plan invoice that month.
    .addColumn("plan_id", "uuid", (c) => c.references("customer_plans.id").onDelete("restrict"))
    // The first day of the month the invoice is for.
    .addColumn("period_month", "date", (c) => c.notNull().check(sql`extract(day from period_month) = 1`))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("draft").check(oneOf("status", INVOICE_STATUSES)))
    .addColumn("issued_on", "date")
    .addColumn("due_on", "date")
    .addColumn("total_cents", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`total_cents between -100000000 and 100000000`),
    )
    // Payments less their refunds, kept by the transaction that records either.
    .addColumn("paid_cents", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`paid_cents between 0 and 100000000`),
    )
    .addColumn("footer", "text", (c) => c.check(sql`length(footer) <= 500`))
    .addColumn("paid_at", "timestamptz")
    .addColumn("voided_at", "timestamptz")
    .addColumn("uncollectible_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "invoices_dates_check",
      sql`(status = 'draft') = (issued_on is null)
        and (issued_on is null) = (due_on is null)
        and (due_on is null or due_on >= issued_on)
        and (status = 'paid') = (paid_at is not null)
        and (status = 'void') = (voided_at is not null)
        and (status = 'uncollectible') = (uncollectible_at is not null)`,
    )
    .execute();
  await sql`create unique index invoices_plan_period_key on invoices (plan_id, period_month) where plan_id is not null`.execute(
    db,
  );
  await sql`create unique index invoices_customer_period_key on invoices (customer_id, period_month) where plan_id is null`.execute(
    db,
  );
  await sql`create index invoices_customer_id_idx on invoices (customer_id, period_month desc, id)`.execute(db);
  // The Billing tab: open invoices by due date (overdue first), the others newest first.
  await sql`create index invoices_status_due_on_idx on invoices (status, due_on, id)`.execute(db);
  await sql`create index invoices_period_month_idx on invoices (period_month, status)`.execute(db);

  await db.schema
    .createTable("invoice_lines")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("invoice_id", "uuid", (c) => c.notNull().references("invoices.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(oneOf("kind", INVOICE_LINE_KINDS)))
    .addColumn("description", "text", (c) => c.notNull().check(sql`length(description) between 1 and 300`))
    .addColumn("visit_id", "uuid", (c) => c.references("services.id").onDelete("set null"))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents between -100000000 and 100000000`))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addCheckConstraint(
      "invoice_lines_sign_check",
      sql`(kind = 'skip_credit' and amount_cents <= 0) or (kind <> 'skip_credit' and amount_cents >= 0)`,
    )
    .addCheckConstraint(
      "invoice_lines_visit_check",
      sql`kind in ('one_time_service', 'skip_credit') or visit_id is null`,
    )
    .execute();
  await sql`create index invoice_lines_invoice_id_idx on invoice_lines (invoice_id, position)`.execute(db);
  await sql`create unique index invoice_lines_one_time_visit_key on invoice_lines (visit_id) where kind = 'one_time_service'`.execute(
    db,
  );
  await sql`create unique index invoice_lines_skip_credit_visit_key on invoice_lines (visit_id) where kind = 'skip_credit'`.execute(
    db,
  );

  await db.schema
    .createTable("payments")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("invoice_id", "uuid", (c) => c.notNull().references("invoices.id").onDelete("restrict"))
    .addColumn("method", "text", (c) => c.notNull().check(oneOf("method", PAYMENT_METHODS)))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents between 1 and 100000000`))
    .addColumn("refunded_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("paid_on", "date", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.check(sql`length(note) <= 500`))
    .addColumn("recorded_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    // One key per press of "Record payment" (or per Stripe charge): a second press finds the first.
    .addColumn("idempotency_key", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`length(idempotency_key) between 1 and 200`),
    )
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("payments_refunded_check", sql`refunded_cents between 0 and amount_cents`)
    .execute();
  await sql`create index payments_invoice_id_idx on payments (invoice_id, created_at)`.execute(db);

  await db.schema
    .createTable("refunds")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("payment_id", "uuid", (c) => c.notNull().references("payments.id").onDelete("restrict"))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents between 1 and 100000000`))
    .addColumn("refunded_on", "date", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.check(sql`length(note) <= 500`))
    .addColumn("recorded_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("idempotency_key", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`length(idempotency_key) between 1 and 200`),
    )
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index refunds_payment_id_idx on refunds (payment_id, created_at)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("refunds").execute();
  await db.schema.dropTable("payments").execute();
  await db.schema.dropTable("invoice_lines").execute();
  await db.schema.dropTable("invoices").execute();
  await db.schema.dropTable("invoice_number_counters").execute();
}
