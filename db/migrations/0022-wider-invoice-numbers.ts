import { sql, type Kysely } from "kysely";

/**
 * Invoice numbers for 10 million invoices a year (issue 34 item 10, docs/decisions/112). 0014
 * allowed "YYYY-NNNNNN", a counter of at most 999,999 a year: at ~95,000 invoices a month the
 * billing run would fail for everyone in November. The sequence may now have 6 to 8 digits (at
 * most 99,999,999), still zero-padded to 6, so every number issued so far stays valid and the
 * numbers of the current year go on as before ("2027-999999", then "2027-1000000").
 *
 * Frozen literals (decision 003): db/constants-match-checks.test.ts compares these CHECKs with
 * db/enums.ts's INVOICE_SEQUENCE_MAX and invoiceNumber().
 */
export async function up(db: Kysely<any>) {
  await sql`alter table invoices drop constraint if exists invoices_number_check`.execute(db);
  await sql`alter table invoices add constraint invoices_number_check
    check (number ~ '^[0-9]{4}-[0-9]{6,8}$')`.execute(db);
  await sql`alter table invoice_number_counters drop constraint if exists invoice_number_counters_last_number_check`.execute(
    db,
  );
  await sql`alter table invoice_number_counters add constraint invoice_number_counters_last_number_check
    check (last_number between 0 and 99999999)`.execute(db);
}

/** Back to 0014's widths: refused (the CHECK fails) once a year has passed 999,999 invoices. */
export async function down(db: Kysely<any>) {
  await sql`alter table invoices drop constraint if exists invoices_number_check`.execute(db);
  await sql`alter table invoices add constraint invoices_number_check check (number ~ '^[0-9]{4}-[0-9]{6}$')`.execute(
    db,
  );
  await sql`alter table invoice_number_counters drop constraint if exists invoice_number_counters_last_number_check`.execute(
    db,
  );
  await sql`alter table invoice_number_counters add constraint invoice_number_counters_last_number_check
    check (last_number between 0 and 999999)`.execute(db);
}
