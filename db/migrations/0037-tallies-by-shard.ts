import { sql, type Kysely } from "kysely";

/**
 * The tallies in 16 rows per key, not one (docs/decisions/112's collection, 105, 113). Every
 * payment moves its invoice from open to paid (two `invoice_tallies` rows) and adds a ledger entry
 * (a `ledger_tallies` row): with one row per month and status, and per month and kind, every
 * payment of the month updated the same three rows, so the collection's 8 charges at a time
 * queued on their row locks, each held to the end of its transaction (bench/collection.ts at
 * 100k: inserts into payments waiting on `transactionid` locks behind a transaction that had
 * moved on to its receipt; 35 charges a second). Each row now also has a shard, the customer's
 * (hashtext of their id, 0 to 15): concurrent payments of different customers mostly touch
 * different rows, and the readers sum the shards. All of one customer's changes land in one
 * shard, so a transaction (one customer's, nearly always) takes its rows in the order it did
 * before: no new lock order, no new deadlock.
 */
const SHARD = (customerColumn: string) => `(hashtext(${customerColumn}::text) & 15)`;

/**
 * The invoices' tally function of 0019, by shard (or, `sharded` false, as 0019 made it), and
 * its rows counted again from the invoices.
 */
async function invoiceTallies(db: Kysely<any>, sharded: boolean) {
  const shard = sharded ? ", shard" : "";
  const shardOf = sharded ? `, ${SHARD("customer_id")} as shard` : "";
  const upsert = (changes: string) => `
    insert into invoice_tallies as t (period_month, status, due_on${shard}, invoices, total_cents, paid_cents)
    select period_month, status, due_on${shard}, sum(n), sum(total), sum(paid)
      from (${changes}) d
      group by period_month, status, due_on${shard}
      having sum(n) <> 0 or sum(total) <> 0 or sum(paid) <> 0
      order by period_month, status, due_on nulls first${shard}
    on conflict on constraint invoice_tallies_key do update set
      invoices = t.invoices + excluded.invoices,
      total_cents = t.total_cents + excluded.total_cents,
      paid_cents = t.paid_cents + excluded.paid_cents`;
  const added = `select period_month, status, due_on${shardOf}, 1 as n,
      total_cents::bigint as total, paid_cents::bigint as paid
    from new_invoices`;
  const removed = `select period_month, status, due_on${shardOf}, -1 as n,
      -total_cents::bigint as total, -paid_cents::bigint as paid
    from old_invoices`;
  await sql
    .raw(
      `create or replace function invoice_tallies_apply() returns trigger language plpgsql as $$
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
  await sql`delete from invoice_tallies`.execute(db);
  await sql
    .raw(
      `insert into invoice_tallies (period_month, status, due_on${shard}, invoices, total_cents, paid_cents)
    select period_month, status, due_on${shardOf}, count(*), sum(total_cents), sum(paid_cents)
    from invoices group by period_month, status, due_on${shard}`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>) {
  await sql`alter table invoice_tallies add column shard smallint not null default 0`.execute(db);
  await sql`alter table invoice_tallies drop constraint invoice_tallies_key`.execute(db);
  await sql`alter table invoice_tallies add constraint invoice_tallies_key
    unique nulls not distinct (period_month, status, due_on, shard)`.execute(db);
  await invoiceTallies(db, true);

  await sql`alter table ledger_tallies add column shard smallint not null default 0`.execute(db);
  await sql`alter table ledger_tallies drop constraint ledger_tallies_pkey`.execute(db);
  await sql`alter table ledger_tallies add primary key (month, kind, shard)`.execute(db);
  // Entries are only ever added, so a month's tally only ever grows; rows in key order (no deadlock).
  await sql
    .raw(
      `create or replace function ledger_tallies_apply() returns trigger language plpgsql as $$
    begin
      insert into ledger_tallies as t (month, kind, shard, entries, amount_cents)
      select date_trunc('month', occurred_on)::date, kind, ${SHARD("customer_id")}, count(*), sum(amount_cents)
      from new_entries group by 1, 2, 3 order by 1, 2, 3
      on conflict (month, kind, shard) do update set
        entries = t.entries + excluded.entries, amount_cents = t.amount_cents + excluded.amount_cents;
      return null;
    end
  $$`,
    )
    .execute(db);
  await sql`delete from ledger_tallies`.execute(db);
  await sql`insert into ledger_tallies (month, kind, shard, entries, amount_cents)
    select date_trunc('month', occurred_on)::date, kind, ${sql.raw(SHARD("customer_id"))}, count(*), sum(amount_cents)
    from ledger_entries group by 1, 2, 3`.execute(db);
}

export async function down(db: Kysely<any>) {
  // The key and the function of 0019 again, its rows counted again.
  await sql`alter table invoice_tallies drop constraint invoice_tallies_key`.execute(db);
  await sql`alter table invoice_tallies drop column shard`.execute(db);
  await sql`alter table invoice_tallies add constraint invoice_tallies_key
    unique nulls not distinct (period_month, status, due_on)`.execute(db);
  await invoiceTallies(db, false);
  // The ledger's key and function of 0021 again, its rows counted again.
  await sql`delete from ledger_tallies`.execute(db);
  await sql`alter table ledger_tallies drop constraint ledger_tallies_pkey`.execute(db);
  await sql`alter table ledger_tallies drop column shard`.execute(db);
  await sql`alter table ledger_tallies add primary key (month, kind)`.execute(db);
  await sql
    .raw(
      `create or replace function ledger_tallies_apply() returns trigger language plpgsql as $$
    begin
      insert into ledger_tallies as t (month, kind, entries, amount_cents)
      select date_trunc('month', occurred_on)::date, kind, count(*), sum(amount_cents)
      from new_entries group by 1, 2 order by 1, 2
      on conflict (month, kind) do update set
        entries = t.entries + excluded.entries, amount_cents = t.amount_cents + excluded.amount_cents;
      return null;
    end
  $$`,
    )
    .execute(db);
  await sql`insert into ledger_tallies (month, kind, entries, amount_cents)
    select date_trunc('month', occurred_on)::date, kind, count(*), sum(amount_cents)
    from ledger_entries group by 1, 2`.execute(db);
}
