import { sql, type Kysely } from "kysely";

// Frozen (docs/decisions/003): the lists below are stated as they were when this migration first
// ran; db/constants-match-checks.test.ts compares the live lists in db/enums.ts with them.
const LEDGER_ENTRY_KINDS = [
  "invoice",
  "invoice_void",
  "write_off",
  "payment",
  "refund",
  "credit_note",
  "payment_reversed",
  "dispute_lost",
];
const CREDIT_NOTE_REASONS = ["refund", "cancellation", "business_cancelled", "weather", "plan_hold", "goodwill"];
const CREDIT_NOTE_PAYOUTS = ["credit", "refund"];
const PAYMENT_REVERSAL_KINDS = ["reversed", "dispute_lost"];
// The business's day for an entry made by a status change (a void, a write-off): its timestamp's
// day in Las Vegas, as app/utils/business-time.ts keeps it.
const BUSINESS_TIME_ZONE = "America/Los_Angeles";

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * The customer ledger (issue 34, docs/decisions/113): every money event of a customer as an
 * append-only entry in integer cents, whose sum is the customer's balance (positive: owed to the
 * business; negative: credit on file).
 *
 * The entries are written by the database, in the statement that stores the document that is the
 * event (an invoice issued, voided or written off; a payment; a refund; a credit note; a payment
 * reversed or a dispute lost), by triggers with transition tables as the invoice tallies are (0019):
 * no code path, now or later, can move money without its entry, and a batch of 500 invoices is one
 * INSERT of 500 entries. A trigger refuses every UPDATE, DELETE and TRUNCATE of an entry: a
 * correction is a new entry.
 *
 * Existing invoices, payments and refunds become entries here. The migration then checks, for
 * every customer, that the entries' sum equals the balance the invoices state (what open invoices
 * owe, less money received beyond an invoice's total), and stops if one differs.
 */
export async function up(db: Kysely<any>) {
  // What an invoice was paid with: money, and credit on file (part of paid_cents, shown apart).
  await sql`alter table invoices
    add column credit_applied_cents integer not null default 0,
    add column refunded_cents integer not null default 0,
    add constraint invoices_credit_applied_check check (credit_applied_cents between 0 and paid_cents),
    add constraint invoices_refunded_check check (refunded_cents between 0 and 100000000)`.execute(db);

  // A payment: the part beyond what its invoice owed is kept as credit; reversals (a bounced check,
  // a lost dispute) and refunds together never exceed it.
  await sql`alter table payments
    add column to_credit_cents integer not null default 0,
    add column reversed_cents integer not null default 0,
    add constraint payments_to_credit_check check (to_credit_cents between 0 and amount_cents),
    drop constraint payments_refunded_check,
    add constraint payments_refunded_check check (
      refunded_cents >= 0 and reversed_cents >= 0 and refunded_cents + reversed_cents <= amount_cents
    )`.execute(db);

  // The admin's "Overpaid" list: payments with money kept as credit not yet refunded (few).
  await sql`create index payments_overpaid_idx on payments (created_at desc, id)
    where to_credit_cents > refunded_cents`.execute(db);

  await db.schema
    .createTable("credit_note_number_counters")
    .addColumn("year", "integer", (c) => c.primaryKey().check(sql`year between 2000 and 9999`))
    .addColumn("last_number", "integer", (c) => c.notNull().check(sql`last_number between 0 and 9999999`))
    .execute();

  await db.schema
    .createTable("credit_notes")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("number", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`number ~ '^CN-[0-9]{4}-[0-9]{7}$'`),
    )
    .addColumn("customer_id", "uuid", (c) => c.notNull().references("users.id").onDelete("restrict"))
    .addColumn("invoice_id", "uuid", (c) => c.references("invoices.id").onDelete("restrict"))
    .addColumn("reason", "text", (c) => c.notNull().check(oneOf("reason", CREDIT_NOTE_REASONS)))
    .addColumn("paid_out", "text", (c) => c.notNull().check(oneOf("paid_out", CREDIT_NOTE_PAYOUTS)))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents between 1 and 100000000`))
    .addColumn("issued_on", "date", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().check(sql`length(description) between 1 and 300`))
    .addColumn("refund_id", "uuid", (c) => c.unique().references("refunds.id").onDelete("restrict"))
    .addColumn("idempotency_key", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`length(idempotency_key) between 1 and 200`),
    )
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("credit_notes_refund_check", sql`(paid_out = 'refund') = (refund_id is not null)`)
    .execute();
  await sql`create index credit_notes_customer_id_idx on credit_notes (customer_id, issued_on desc, id)`.execute(db);

  await db.schema
    .createTable("payment_reversals")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("payment_id", "uuid", (c) => c.notNull().references("payments.id").onDelete("restrict"))
    .addColumn("kind", "text", (c) => c.notNull().check(oneOf("kind", PAYMENT_REVERSAL_KINDS)))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents between 1 and 100000000`))
    .addColumn("reversed_on", "date", (c) => c.notNull())
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
  await sql`create index payment_reversals_payment_id_idx on payment_reversals (payment_id)`.execute(db);

  await sql`create table ledger_entries (
    id bigint generated always as identity primary key,
    customer_id uuid not null references users (id) on delete restrict,
    kind text not null constraint ledger_entries_kind_check check (${oneOf("kind", LEDGER_ENTRY_KINDS)}),
    amount_cents integer not null check (amount_cents between -100000000 and 100000000),
    occurred_on date not null,
    invoice_id uuid references invoices (id) on delete restrict,
    payment_id uuid references payments (id) on delete restrict,
    refund_id uuid references refunds (id) on delete restrict,
    credit_note_id uuid references credit_notes (id) on delete restrict,
    reversal_id uuid references payment_reversals (id) on delete restrict,
    -- One entry per event: the document's kind and id ("payment:<uuid>").
    entry_key text not null unique,
    created_at timestamptz not null default now(),
    constraint ledger_entries_sign_check check (
      (kind = 'invoice')
      or (kind = 'invoice_void' and amount_cents <> 0)
      or (kind in ('write_off', 'payment', 'credit_note') and amount_cents < 0)
      or (kind in ('refund', 'payment_reversed', 'dispute_lost') and amount_cents > 0)
    )
  )`.execute(db);
  // A customer's balance and ledger page; the accountant's export and the month's totals by day.
  await sql`create index ledger_entries_customer_id_idx on ledger_entries (customer_id, id) include (amount_cents)`.execute(
    db,
  );
  await sql`create index ledger_entries_occurred_on_idx on ledger_entries (occurred_on, id)`.execute(db);

  // Every completed service billed exactly once (issue 34): a customer may have several invoices of
  // services in a month (a service completed after its month's invoice, a batch edge); a visit is
  // still billed once (the lines' unique visit index). The run looks for services completed late
  // over every month since billing began, through the few completed visits without a plan.
  await sql`drop index invoices_customer_period_key`.execute(db);
  // A voided invoice can be issued again ("Issue again"): one live invoice per plan and month.
  await sql`alter table invoices add column reissued_as uuid references invoices (id) on delete restrict`.execute(db);
  await sql`drop index invoices_plan_period_key`.execute(db);
  await sql`create unique index invoices_plan_period_key on invoices (plan_id, period_month)
    where plan_id is not null and status <> 'void'`.execute(db);
  await sql`create index services_one_time_completed_idx on services (service_date, id)
    where status = 'completed' and plan_id is null`.execute(db);

  // The month's roll-forward on the Billing tab reads a few rows per month, not the month's entries.
  await sql`create table ledger_tallies (
    month date not null check (extract(day from month) = 1),
    kind text not null,
    entries integer not null,
    amount_cents bigint not null,
    primary key (month, kind)
  )`.execute(db);

  await backfill(db);
  await checkBalances(db);
  await sql`insert into ledger_tallies (month, kind, entries, amount_cents)
    select date_trunc('month', occurred_on)::date, kind, count(*), sum(amount_cents)
    from ledger_entries group by 1, 2`.execute(db);

  // Invoices whose credits exceeded their charges stayed "open" with a negative total and were never
  // applied: they are settled now, and what they credited is credit on file (their entry stands).
  await sql`update invoices set status = 'paid', paid_at = now(), updated_at = now()
    where status = 'open' and total_cents <= paid_cents`.execute(db);
  await sql`update invoices i set refunded_cents = r.refunded from (
      select p.invoice_id, sum(r.amount_cents)::int as refunded
      from refunds r join payments p on p.id = r.payment_id group by p.invoice_id
    ) r where r.invoice_id = i.id`.execute(db);

  await createTriggers(db);
}

async function backfill(db: Kysely<any>) {
  const day = (column: string) => sql.raw(`(${column} at time zone '${BUSINESS_TIME_ZONE}')::date`);
  await sql`insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, entry_key)
    select customer_id, 'invoice', total_cents, issued_on, id, 'invoice:' || id
    from invoices where status <> 'draft' order by issued_on, number`.execute(db);
  await sql`insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, entry_key)
    select customer_id, 'invoice_void', -total_cents, ${day("voided_at")}, id, 'invoice-void:' || id
    from invoices where status = 'void' and total_cents <> 0 order by voided_at, number`.execute(db);
  await sql`insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, entry_key)
    select customer_id, 'write_off', paid_cents - total_cents, ${day("uncollectible_at")}, id, 'write-off:' || id
    from invoices where status = 'uncollectible' and total_cents > paid_cents
    order by uncollectible_at, number`.execute(db);
  await sql`insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, payment_id, entry_key)
    select i.customer_id, 'payment', -p.amount_cents, p.paid_on, i.id, p.id, 'payment:' || p.id
    from payments p join invoices i on i.id = p.invoice_id order by p.created_at, p.id`.execute(db);
  // Before the ledger a refund made its invoice owed again (the balance counted it): it is entered
  // as the refund it was, so that every balance stays what it was; new refunds come with a credit
  // note (docs/decisions/113).
  await sql`insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, payment_id, refund_id, entry_key)
    select i.customer_id, 'refund', r.amount_cents, r.refunded_on, i.id, p.id, r.id, 'refund:' || r.id
    from refunds r join payments p on p.id = r.payment_id join invoices i on i.id = p.invoice_id
    order by r.created_at, r.id`.execute(db);
}

/** Stops the migration (and so the server's start) if one customer's balance would change. */
async function checkBalances(db: Kysely<any>) {
  const { rows } = await sql<{ customer_id: string; before: string; after: string }>`
    with stated as (
      select customer_id, sum(case
          when status in ('open', 'paid') then total_cents - paid_cents
          when status = 'void' then -paid_cents
          else 0 end)::int8 as before
      from invoices where status <> 'draft' group by customer_id
    ), entered as (
      select customer_id, sum(amount_cents)::int8 as after from ledger_entries group by customer_id
    )
    select coalesce(s.customer_id, e.customer_id) as customer_id,
      coalesce(s.before, 0) as before, coalesce(e.after, 0) as after
    from stated s full join entered e on e.customer_id = s.customer_id
    where coalesce(s.before, 0) <> coalesce(e.after, 0)
    limit 5`.execute(db);
  if (rows.length > 0) {
    const first = rows[0];
    throw new Error(
      `The customer ledger would change ${rows.length === 5 ? "5 or more" : rows.length} customers' balances ` +
        `(customer ${first.customer_id}: ${first.before} cents before, ${first.after} after); nothing was changed.`,
    );
  }
}

async function createTriggers(db: Kysely<any>) {
  const day = (column: string) => `(${column} at time zone '${BUSINESS_TIME_ZONE}')::date`;
  await sql
    .raw(
      `create function ledger_entries_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'ledger entries are append-only: a correction is a new entry'
        using errcode = 'restrict_violation';
    end
  $$`,
    )
    .execute(db);
  await sql`create trigger ledger_entries_append_only before update or delete on ledger_entries
    for each row execute function ledger_entries_append_only()`.execute(db);
  await sql`create trigger ledger_entries_no_truncate before truncate on ledger_entries
    for each statement execute function ledger_entries_append_only()`.execute(db);
  // Entries are only ever added, so a month's tally only ever grows; rows in key order (no deadlock).
  await sql
    .raw(
      `create function ledger_tallies_apply() returns trigger language plpgsql as $$
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
  await sql`create trigger ledger_entries_tallies after insert on ledger_entries
    referencing new table as new_entries for each statement execute function ledger_tallies_apply()`.execute(db);

  // An invoice is an entry when it is issued (inserted issued, or a draft issued), and its void or
  // write-off is another. A status change to paid moves no money of the ledger's.
  const issued = (from: string) => `
    insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, entry_key)
    select n.customer_id, 'invoice', n.total_cents, n.issued_on, n.id, 'invoice:' || n.id ${from}`;
  await sql
    .raw(
      `create function ledger_invoices_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${issued("from new_invoices n where n.status not in ('draft', 'void') order by n.number")};
        return null;
      end if;
      ${issued(`from new_invoices n join old_invoices o on o.id = n.id
        where o.status = 'draft' and n.status not in ('draft', 'void') order by n.number`)};
      insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, entry_key)
      select n.customer_id, 'invoice_void', -n.total_cents, ${day("n.voided_at")}, n.id, 'invoice-void:' || n.id
      from new_invoices n join old_invoices o on o.id = n.id
      where o.status not in ('draft', 'void') and n.status = 'void' and n.total_cents <> 0 order by n.number;
      insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, entry_key)
      select n.customer_id, 'write_off', n.paid_cents - n.total_cents, ${day("n.uncollectible_at")}, n.id,
        'write-off:' || n.id
      from new_invoices n join old_invoices o on o.id = n.id
      where o.status <> 'uncollectible' and n.status = 'uncollectible' and n.total_cents > n.paid_cents
      order by n.number;
      return null;
    end
  $$`,
    )
    .execute(db);
  await sql`create trigger invoices_ledger_insert after insert on invoices
    referencing new table as new_invoices for each statement execute function ledger_invoices_apply()`.execute(db);
  await sql`create trigger invoices_ledger_update after update on invoices
    referencing old table as old_invoices new table as new_invoices
    for each statement execute function ledger_invoices_apply()`.execute(db);

  const documentTrigger = async (table: string, body: string) => {
    await sql
      .raw(
        `create function ledger_${table}_apply() returns trigger language plpgsql as $$
      begin
        ${body};
        return null;
      end
    $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_ledger_insert after insert on ${table}
      referencing new table as new_rows for each statement execute function ledger_${table}_apply()`,
      )
      .execute(db);
  };
  await documentTrigger(
    "payments",
    `insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, payment_id, entry_key)
     select i.customer_id, 'payment', -n.amount_cents, n.paid_on, i.id, n.id, 'payment:' || n.id
     from new_rows n join invoices i on i.id = n.invoice_id order by n.id`,
  );
  await documentTrigger(
    "refunds",
    `insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, payment_id, refund_id, entry_key)
     select i.customer_id, 'refund', n.amount_cents, n.refunded_on, i.id, p.id, n.id, 'refund:' || n.id
     from new_rows n join payments p on p.id = n.payment_id join invoices i on i.id = p.invoice_id order by n.id`,
  );
  await documentTrigger(
    "credit_notes",
    `insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, credit_note_id, entry_key)
     select n.customer_id, 'credit_note', -n.amount_cents, n.issued_on, n.invoice_id, n.id, 'credit-note:' || n.id
     from new_rows n order by n.number`,
  );
  await documentTrigger(
    "payment_reversals",
    `insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, payment_id, reversal_id, entry_key)
     select i.customer_id, case n.kind when 'dispute_lost' then 'dispute_lost' else 'payment_reversed' end,
       n.amount_cents, n.reversed_on, i.id, p.id, n.id, 'reversal:' || n.id
     from new_rows n join payments p on p.id = n.payment_id join invoices i on i.id = p.invoice_id order by n.id`,
  );
}

export async function down(db: Kysely<any>) {
  for (const table of ["payment_reversals", "credit_notes", "refunds", "payments"]) {
    await sql.raw(`drop trigger if exists ${table}_ledger_insert on ${table}`).execute(db);
    await sql.raw(`drop function if exists ledger_${table}_apply()`).execute(db);
  }
  await sql`drop trigger if exists invoices_ledger_update on invoices`.execute(db);
  await sql`drop trigger if exists invoices_ledger_insert on invoices`.execute(db);
  await sql`drop function if exists ledger_invoices_apply()`.execute(db);
  await sql`drop table if exists ledger_entries`.execute(db);
  await sql`drop function if exists ledger_tallies_apply()`.execute(db);
  await sql`drop table if exists ledger_tallies`.execute(db);
  await sql`drop index if exists services_one_time_completed_idx`.execute(db);
  await sql`drop index invoices_plan_period_key`.execute(db);
  await sql`create unique index invoices_plan_period_key on invoices (plan_id, period_month) where plan_id is not null`.execute(
    db,
  );
  await sql`alter table invoices drop column reissued_as`.execute(db);
  // Back to one invoice of services per customer and month: fails if a month has two, as it must.
  await sql`create unique index invoices_customer_period_key on invoices (customer_id, period_month) where plan_id is null`.execute(
    db,
  );
  await sql`drop function if exists ledger_entries_append_only()`.execute(db);
  await sql`drop table if exists payment_reversals`.execute(db);
  await sql`drop table if exists credit_notes`.execute(db);
  await sql`drop table if exists credit_note_number_counters`.execute(db);
  await sql`drop index if exists payments_overpaid_idx`.execute(db);
  await sql`alter table payments
    drop constraint payments_refunded_check,
    drop constraint payments_to_credit_check,
    drop column reversed_cents,
    drop column to_credit_cents,
    add constraint payments_refunded_check check (refunded_cents between 0 and amount_cents)`.execute(db);
  await sql`alter table invoices drop column refunded_cents, drop column credit_applied_cents`.execute(db);
}
