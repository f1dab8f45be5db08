import { sql, type Kysely } from "kysely";

// Frozen copy (db/constants-match-checks.test.ts compares it with db/enums.ts).
const CANCEL_REASONS = ["moved", "price", "service", "no_longer_needed", "other"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Why a plan was cancelled (issue 38, docs/decisions/130): asked on the customer's and the
 * admin's cancel forms, optional. Null reason: not answered (or cancelled before it was asked).
 * The note is the customer's or the admin's own words, bounded by the forms.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table customer_plans add column cancel_reason text`.execute(db);
  await sql`alter table customer_plans add column cancel_note text`.execute(db);
  await sql`alter table customer_plans add constraint customer_plans_cancel_reason_check
    check (${oneOf("cancel_reason", CANCEL_REASONS)})`.execute(db);
  await sql`alter table customer_plans add constraint customer_plans_cancel_note_length
    check (char_length(cancel_note) <= 500)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table customer_plans drop constraint if exists customer_plans_cancel_note_length`.execute(db);
  await sql`alter table customer_plans drop constraint if exists customer_plans_cancel_reason_check`.execute(db);
  await sql`alter table customer_plans drop column if exists cancel_note`.execute(db);
  await sql`alter table customer_plans drop column if exists cancel_reason`.execute(db);
}
