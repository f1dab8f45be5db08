import { sql, type Kysely } from "kysely";

/**
 * Credits that never go missing (issue 34's last gaps, docs/decisions/120):
 *  - a credit note may give back a plan change's adjustment (a downgrade's money back, at a
 *    cancellation or when the invoice that carried it is voided): its line names the adjustment,
 *    its month and, as `slot`, the month's first day; the (plan, slot) key of visit credits leaves
 *    such lines out, and an adjustment is given back once;
 *  - a credit note's reason "invoice_void": what a voided invoice credited comes back;
 *  - a plan change keeps the rule it was prorated by (by the days for a dated change), so that a
 *    later change in the same month prorates the month's whole history.
 * The reasons are listed in full (frozen copy of db/enums.ts's CREDIT_NOTE_REASONS).
 */
const REASONS = ["refund", "cancellation", "business_cancelled", "weather", "plan_hold", "goodwill", "invoice_void"];
const REASONS_BEFORE = REASONS.filter((reason) => reason !== "invoice_void");
const oneOf = (values: readonly string[]) => sql.raw(`reason in (${values.map((v) => `'${v}'`).join(", ")})`);

export async function up(db: Kysely<any>) {
  await sql`alter table credit_note_lines add column adjustment_id uuid references plan_adjustments (id) on delete set null`.execute(
    db,
  );
  await sql`create unique index credit_note_lines_adjustment_key on credit_note_lines (adjustment_id)
    where adjustment_id is not null`.execute(db);
  await sql`drop index credit_note_lines_plan_slot_key`.execute(db);
  await sql`create unique index credit_note_lines_plan_slot_key on credit_note_lines (plan_id, slot)
    where plan_id is not null and adjustment_id is null`.execute(db);
  await sql`alter table credit_notes drop constraint if exists credit_notes_reason_check`.execute(db);
  await sql`alter table credit_notes add constraint credit_notes_reason_check check (${oneOf(REASONS)})`.execute(db);
  await sql`alter table plan_changes add column by_days boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table plan_changes drop column by_days`.execute(db);
  await sql`delete from credit_notes where reason = 'invoice_void'`.execute(db);
  await sql`alter table credit_notes drop constraint if exists credit_notes_reason_check`.execute(db);
  await sql`alter table credit_notes add constraint credit_notes_reason_check check (${oneOf(REASONS_BEFORE)})`.execute(
    db,
  );
  await sql`drop index credit_note_lines_plan_slot_key`.execute(db);
  await sql`delete from credit_note_lines where adjustment_id is not null`.execute(db);
  await sql`create unique index credit_note_lines_plan_slot_key on credit_note_lines (plan_id, slot)
    where plan_id is not null`.execute(db);
  await sql`drop index credit_note_lines_adjustment_key`.execute(db);
  await sql`alter table credit_note_lines drop column adjustment_id`.execute(db);
}
