import { sql, type Kysely } from "kysely";

/**
 * The visits a credit note gives back (docs/decisions/115): a plan cancelled with notice has no
 * next invoice to carry its credits, so they come back as one numbered credit note whose lines say
 * which visit (or, for a slot beyond the made visits, which day) of which plan's month each is for.
 *  - A visit is credited once, on an invoice (a skip_credit line) or on a credit note: the unique
 *    index here, and the credit queries look in both.
 *  - (plan_id, month) lets a month's credits be summed with the invoices' (never above its bill).
 * The credit note's amount is the lines' sum; its ledger entry is the note's (0021), one per note.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("credit_note_lines")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("credit_note_id", "uuid", (c) => c.notNull().references("credit_notes.id").onDelete("cascade"))
    .addColumn("plan_id", "uuid", (c) => c.references("customer_plans.id").onDelete("set null"))
    .addColumn("month", "date", (c) => c.notNull().check(sql`extract(day from month) = 1`))
    .addColumn("slot", "date", (c) => c.notNull())
    .addColumn("visit_id", "uuid", (c) => c.references("services.id").onDelete("set null"))
    .addColumn("description", "text", (c) => c.notNull().check(sql`length(description) between 1 and 300`))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents between 1 and 100000000`))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index credit_note_lines_note_idx on credit_note_lines (credit_note_id, position)`.execute(db);
  await sql`create unique index credit_note_lines_visit_key on credit_note_lines (visit_id) where visit_id is not null`.execute(
    db,
  );
  // One credit per plan slot: a slot beyond the made visits has no visit id to be unique on.
  await sql`create unique index credit_note_lines_plan_slot_key on credit_note_lines (plan_id, slot)
    where plan_id is not null`.execute(db);
  await sql`create index credit_note_lines_plan_month_idx on credit_note_lines (plan_id, month)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("credit_note_lines").execute();
}
