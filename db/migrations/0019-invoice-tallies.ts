import { sql, type Kysely } from "kysely";

/**
 * The Billing tab's figures at 100k invoices a month (docs/decisions/105). The month's totals and
 * the overdue count summed every invoice of the month: 40 ms and 27 ms at 100k, paid by the first
 * visit after each 30 s a process kept them, which for an owner opening the tab now and then is
 * every visit. So `invoice_tallies` holds, per month, status and due day, how many invoices there
 * are and their totals and payments, kept by triggers on invoices (whatever code writes an
 * invoice: the run, a payment, Stripe, a void; in the same transaction). The tab reads a few
 * dozen rows of it instead of 100,000 invoices, and always current figures.
 *
 * The triggers are per statement with transition tables: the run's insert of 500 invoices is one
 * upsert of a row or two. A statement whose changes cancel out (an update of other columns) writes
 * and locks nothing. Rows are upserted in key order, so two statements never lock two rows in
 * opposite orders.
 */
export async function up(db: Kysely<any>) {
  await sql`create table invoice_tallies (
    period_month date not null,
    status text not null,
    due_on date,
    invoices integer not null default 0,
    total_cents bigint not null default 0,
    paid_cents bigint not null default 0,
    constraint invoice_tallies_key unique nulls not distinct (period_month, status, due_on)
  )`.execute(db);
  // The overdue count: the open rows due before today.
  await sql`create index invoice_tallies_status_due_on_idx on invoice_tallies (status, due_on)`.execute(db);

  const upsert = (changes: string) => `
    insert into invoice_tallies as t (period_month, status, due_on, invoices, total_cents, paid_cents)
    select period_month, status, due_on, sum(n), sum(total), sum(paid)
      from (${changes}) d
      group by period_month, status, due_on
      having sum(n) <> 0 or sum(total) <> 0 or sum(paid) <> 0
      order by period_month, status, due_on nulls first
    on conflict on constraint invoice_tallies_key do update set
      invoices = t.invoices + excluded.invoices,
      total_cents = t.total_cents + excluded.total_cents,
      paid_cents = t.paid_cents + excluded.paid_cents`;
  const added = `select period_month, status, due_on, 1 as n, total_cents::bigint as total, paid_cents::bigint as paid
    from new_invoices`;
  const removed = `select period_month, status, due_on, -1 as n, -total_cents::bigint as total, -paid_cents::bigint as paid
    from old_invoices`;
  await sql
    .raw(
      `create function invoice_tallies_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${upsert(added)};
      elsif tg_op = 'UPDATE' then
        ${upsert(`${added} union all ${removed}`)};
      else
        ${upsert(removed)};
      end if;
      return null;
    end
  $$`,
    )
    .execute(db);
  await sql`create trigger invoices_tallies_insert after insert on invoices
    referencing new table as new_invoices for each statement execute function invoice_tallies_apply()`.execute(db);
  await sql`create trigger invoices_tallies_update after update on invoices
    referencing old table as old_invoices new table as new_invoices
    for each statement execute function invoice_tallies_apply()`.execute(db);
  await sql`create trigger invoices_tallies_delete after delete on invoices
    referencing old table as old_invoices for each statement execute function invoice_tallies_apply()`.execute(db);

  // The invoices already made.
  await sql`insert into invoice_tallies (period_month, status, due_on, invoices, total_cents, paid_cents)
    select period_month, status, due_on, count(*), sum(total_cents), sum(paid_cents)
    from invoices group by period_month, status, due_on`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger if exists invoices_tallies_delete on invoices`.execute(db);
  await sql`drop trigger if exists invoices_tallies_update on invoices`.execute(db);
  await sql`drop trigger if exists invoices_tallies_insert on invoices`.execute(db);
  await sql`drop function if exists invoice_tallies_apply()`.execute(db);
  await sql`drop table if exists invoice_tallies`.execute(db);
}
