import { sql, type Kysely } from "kysely";

// This migration's own copy of the outbox kinds (frozen, docs/decisions/003; db/enums.ts holds the
// live list): every kind before it (migration 0023's list), plus the e-mail of a new price.
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
];
const OUTBOX_KINDS = [...KINDS_BEFORE, "price_change"];

// And of the invoice line kinds (0014's list), plus a plan change's adjustment of a month.
const LINE_KINDS_BEFORE = ["plan_month", "prorated_month", "one_time_service", "skip_credit"];
const INVOICE_LINE_KINDS = [...LINE_KINDS_BEFORE, "plan_change"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Prices locked on the customer plan (docs/decisions/116).
 * - price_cents, add_on_cents: the catalogue plan's monthly price and the add-ons for the plan's
 *   dogs, as they were when the plan started or last changed; the billing run bills these, never
 *   Sanity's price of the day. Null only until the billing run's first step locks them: the
 *   catalogue lives in Sanity, which a migration cannot read (db/ stands alone), so the plans that
 *   exist now are backfilled by that step from the catalogue exactly as the run reads it, before
 *   the run bills anything.
 * - pending_*: a new catalogue price and the first day it applies (a month's first day at least
 *   the Terms' notice away); all three set or none.
 * - outbox kind "price_change": the customer's e-mail about it.
 *
 * Prorations (docs/decisions/117):
 * - plan_changes: each change of a plan's terms (catalogue plan, days, dogs) from a day on, with
 *   the terms before it (weekdays, monthly price): a skip is credited at the rate of the terms in
 *   force on its day, whatever the plan became since.
 * - plan_adjustments: what a change makes a month owe more (or less) than it was, or will be,
 *   billed; on the plan's next invoice as a "plan_change" line (invoice_id set then).
 */
export async function up(db: Kysely<any>) {
  const cents = (column: string) => sql`${sql.ref(column)} is null or ${sql.ref(column)} between 0 and 10000000`;
  await db.schema
    .alterTable("customer_plans")
    .addColumn("price_cents", "integer", (c) => c.check(cents("price_cents")))
    .addColumn("add_on_cents", "integer", (c) => c.check(cents("add_on_cents")))
    .addColumn("pending_price_cents", "integer", (c) => c.check(cents("pending_price_cents")))
    .addColumn("pending_add_on_cents", "integer", (c) => c.check(cents("pending_add_on_cents")))
    .addColumn("pending_price_from", "date")
    .execute();
  await sql`alter table customer_plans add constraint customer_plans_price_whole
    check ((price_cents is null) = (add_on_cents is null))`.execute(db);
  await sql`alter table customer_plans add constraint customer_plans_pending_price_whole
    check ((pending_price_cents is null) = (pending_add_on_cents is null)
      and (pending_price_cents is null) = (pending_price_from is null)
      and (pending_price_cents is null or price_cents is not null)
      and (pending_price_from is null or extract(day from pending_price_from) = 1))`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", OUTBOX_KINDS)})`.execute(db);

  await sql`alter table invoice_lines drop constraint if exists invoice_lines_kind_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_kind_check
    check (${oneOf("kind", INVOICE_LINE_KINDS)})`.execute(db);
  // An adjustment is either sign; every other line keeps its own.
  await sql`alter table invoice_lines drop constraint invoice_lines_sign_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_sign_check check (kind = 'plan_change'
    or (kind = 'skip_credit' and amount_cents <= 0) or (kind <> 'skip_credit' and amount_cents >= 0))`.execute(db);

  await db.schema
    .createTable("plan_changes")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("plan_id", "uuid", (c) => c.notNull().references("customer_plans.id").onDelete("cascade"))
    .addColumn("from_day", "date", (c) => c.notNull())
    .addColumn("old_weekdays", sql`smallint[]`, (c) => c.notNull())
    .addColumn("old_monthly_cents", "integer", (c) => c.check(sql`old_monthly_cents between 0 and 10000000`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index plan_changes_plan_idx on plan_changes (plan_id, from_day)`.execute(db);
  await db.schema
    .createTable("plan_adjustments")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("plan_id", "uuid", (c) => c.notNull().references("customer_plans.id").onDelete("cascade"))
    .addColumn("change_id", "uuid", (c) => c.notNull().references("plan_changes.id").onDelete("cascade"))
    .addColumn("month", "date", (c) => c.notNull().check(sql`extract(day from month) = 1`))
    .addColumn("amount_cents", "integer", (c) =>
      c.notNull().check(sql`amount_cents <> 0 and amount_cents between -10000000 and 10000000`),
    )
    .addColumn("description", "text", (c) => c.notNull().check(sql`length(description) between 1 and 300`))
    .addColumn("invoice_id", "uuid", (c) => c.references("invoices.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The billing run reads a batch's adjustments not billed yet; the month's billing reads them all.
  await sql`create index plan_adjustments_unbilled_idx on plan_adjustments (plan_id) where invoice_id is null`.execute(
    db,
  );
  await sql`create index plan_adjustments_plan_month_idx on plan_adjustments (plan_id, month)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("plan_adjustments").execute();
  await db.schema.dropTable("plan_changes").execute();
  await sql`delete from invoice_lines where kind = 'plan_change'`.execute(db);
  await sql`alter table invoice_lines drop constraint invoice_lines_sign_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_sign_check
    check ((kind = 'skip_credit' and amount_cents <= 0) or (kind <> 'skip_credit' and amount_cents >= 0))`.execute(db);
  await sql`alter table invoice_lines drop constraint if exists invoice_lines_kind_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_kind_check
    check (${oneOf("kind", LINE_KINDS_BEFORE)})`.execute(db);
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", KINDS_BEFORE)})`.execute(db);
  await sql`alter table customer_plans drop constraint customer_plans_pending_price_whole`.execute(db);
  await sql`alter table customer_plans drop constraint customer_plans_price_whole`.execute(db);
  await db.schema
    .alterTable("customer_plans")
    .dropColumn("pending_price_from")
    .dropColumn("pending_add_on_cents")
    .dropColumn("pending_price_cents")
    .dropColumn("add_on_cents")
    .dropColumn("price_cents")
    .execute();
}
