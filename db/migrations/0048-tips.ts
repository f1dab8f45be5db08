import { sql, type Kysely } from "kysely";

// Frozen (docs/decisions/003): the lists as they are when this migration first runs;
// db/constants-match-checks.test.ts compares the live lists in db/enums.ts with them.
const LEDGER_ENTRY_KINDS_BEFORE = [
  "invoice",
  "invoice_void",
  "write_off",
  "payment",
  "refund",
  "credit_note",
  "payment_reversed",
  "dispute_lost",
];
const LEDGER_ENTRY_KINDS = [...LEDGER_ENTRY_KINDS_BEFORE, "tip", "tip_payment", "tip_void"];
// 0044's list: its initial_clean included (the sign-up's first invoice).
const INVOICE_LINE_KINDS_BEFORE = [
  "plan_month",
  "prorated_month",
  "one_time_service",
  "skip_credit",
  "plan_change",
  "initial_clean",
];
const INVOICE_LINE_KINDS = [...INVOICE_LINE_KINDS_BEFORE, "tip"];
const TIP_WAYS = ["card", "invoice"];
const BUSINESS_TIME_ZONE = "America/Los_Angeles";

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

const SIGN_BEFORE = `(kind = 'invoice')
      or (kind = 'invoice_void' and amount_cents <> 0)
      or (kind in ('write_off', 'payment', 'credit_note') and amount_cents < 0)
      or (kind in ('refund', 'payment_reversed', 'dispute_lost') and amount_cents > 0)`;
const SIGN_AFTER = `${SIGN_BEFORE}
      or (kind = 'tip' and amount_cents > 0)
      or (kind in ('tip_payment', 'tip_void') and amount_cents < 0)`;

const day = (column: string) => `(${column} at time zone '${BUSINESS_TIME_ZONE}')::date`;

/** The invoices' ledger trigger; `tips` false is 0021's, true this migration's (tips left out of "invoice"). */
function invoicesTrigger(tips: boolean) {
  const net = (row: string) => (tips ? `${row}.total_cents - ${row}.tip_cents` : `${row}.total_cents`);
  const issued = (from: string) => `
    insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, entry_key)
    select n.customer_id, 'invoice', ${net("n")}, n.issued_on, n.id, 'invoice:' || n.id ${from}`;
  const tipVoids = tips
    ? `insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, tip_id, technician_id, entry_key)
      select n.customer_id, 'tip_void', -t.amount_cents, ${day("n.voided_at")}, n.id, t.id, t.technician_id,
        'tip-void:' || t.id || ':' || n.id
      from new_invoices n join old_invoices o on o.id = n.id join tips t on t.invoice_id = n.id
      where o.status not in ('draft', 'void') and n.status = 'void' order by n.number, t.id;`
    : "";
  return sql.raw(`create or replace function ledger_invoices_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${issued("from new_invoices n where n.status not in ('draft', 'void') order by n.number")};
        return null;
      end if;
      ${issued(`from new_invoices n join old_invoices o on o.id = n.id
        where o.status = 'draft' and n.status not in ('draft', 'void') order by n.number`)};
      insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, entry_key)
      select n.customer_id, 'invoice_void', -(${net("n")}), ${day("n.voided_at")}, n.id, 'invoice-void:' || n.id
      from new_invoices n join old_invoices o on o.id = n.id
      where o.status not in ('draft', 'void') and n.status = 'void' and ${net("n")} <> 0 order by n.number;
      ${tipVoids}
      insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, entry_key)
      select n.customer_id, 'write_off', n.paid_cents - n.total_cents, ${day("n.uncollectible_at")}, n.id,
        'write-off:' || n.id
      from new_invoices n join old_invoices o on o.id = n.id
      where o.status <> 'uncollectible' and n.status = 'uncollectible' and n.total_cents > n.paid_cents
      order by n.number;
      return null;
    end
  $$`);
}

/**
 * The tips' ledger trigger, one function per operation (an INSERT has no old rows to compare).
 * A card tip is given and paid in one: both entries when Stripe's charge is recorded. An invoice
 * tip is owed once an invoice carries it (again, when "Issue again" moves it).
 */
function tipsTrigger(op: "insert" | "update") {
  const changed = (condition: string) =>
    op === "insert" ? "" : `and exists (select 1 from old_tips o where o.id = n.id and ${condition})`;
  return sql.raw(`create function ledger_tips_${op}_apply() returns trigger language plpgsql as $$
    begin
      insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, tip_id, technician_id, entry_key)
      select n.customer_id, k.kind, k.sign * n.amount_cents, ${day("n.paid_at")}, n.id, n.technician_id,
        k.prefix || n.id
      from new_tips n
      cross join (values ('tip', 1, 'tip:'), ('tip_payment', -1, 'tip-payment:')) as k(kind, sign, prefix)
      where n.paid_at is not null ${changed("o.paid_at is null")}
      order by n.id, k.sign desc;
      insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, tip_id, technician_id, entry_key)
      select n.customer_id, 'tip', n.amount_cents, i.issued_on, i.id, n.id, n.technician_id, 'tip:' || n.id || ':' || i.id
      from new_tips n join invoices i on i.id = n.invoice_id
      where true ${changed("o.invoice_id is distinct from n.invoice_id")}
      order by n.id;
      return null;
    end
  $$`);
}

/**
 * Tips for technicians (issue 36 item 5, docs/decisions/131).
 *
 * - `tips`: one per visit (a second press, a double click, finds it), for the technician the visit
 *   was assigned to, $1 to $500 in cents. Paid by the card on file (`way` card: `paid_at` and the
 *   PaymentIntent once Stripe charged it) or on the customer's next invoice (`way` invoice:
 *   `invoice_id` once a run put it there; "Issue again" moves it to the new invoice).
 * - The ledger (append-only, entries written by triggers as 0021's): `tip` (+, the customer gave
 *   it: money owed to the technician, never the business's revenue) and, for a card tip,
 *   `tip_payment` (−, the card paid it) in the statement that marks it paid; for an invoice tip
 *   `tip` when it is put on an invoice, while the invoice's own entry leaves its tips out
 *   (`invoices.tip_cents`), and `tip_void` (−) when that invoice is voided. Every entry of a tip
 *   carries the tip and its technician.
 */
export async function up(db: Kysely<any>) {
  await sql`create table tips (
    id uuid primary key default gen_random_uuid(),
    visit_id uuid not null unique references services (id) on delete restrict,
    customer_id uuid not null references users (id) on delete restrict,
    technician_id uuid not null references users (id) on delete restrict,
    amount_cents integer not null check (amount_cents between 100 and 50000),
    way text not null check (${oneOf("way", TIP_WAYS)}),
    given_at timestamptz not null default now(),
    given_on date not null,
    stripe_payment_intent_id text unique check (stripe_payment_intent_id ~ '^pi_[A-Za-z0-9_]{1,250}$'),
    paid_at timestamptz,
    invoice_id uuid references invoices (id) on delete restrict,
    constraint tips_payment_check check (
      (way = 'card' and invoice_id is null and (paid_at is null) = (stripe_payment_intent_id is null))
      or (way = 'invoice' and paid_at is null and stripe_payment_intent_id is null)
    )
  )`.execute(db);
  await sql`create index tips_technician_given_on_idx on tips (technician_id, given_on)`.execute(db);
  await sql`create index tips_unbilled_idx on tips (customer_id) where way = 'invoice' and invoice_id is null`.execute(
    db,
  );
  await sql`create index tips_invoice_id_idx on tips (invoice_id) where invoice_id is not null`.execute(db);

  await sql`alter table invoice_lines drop constraint if exists invoice_lines_kind_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_kind_check
    check (${oneOf("kind", INVOICE_LINE_KINDS)})`.execute(db);
  // A tip line names its visit (as a service or a credit does): one live line per visit's tip.
  await sql`alter table invoice_lines drop constraint invoice_lines_visit_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_visit_check
    check (kind in ('one_time_service', 'skip_credit', 'tip') or visit_id is null)`.execute(db);
  await sql`create unique index invoice_lines_tip_visit_key on invoice_lines (visit_id) where kind = 'tip'`.execute(db);
  await sql`alter table invoices add column tip_cents integer not null default 0
    constraint invoices_tip_cents_check check (tip_cents between 0 and 100000000)`.execute(db);

  await sql`alter table ledger_entries drop constraint ledger_entries_kind_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_kind_check
    check (${oneOf("kind", LEDGER_ENTRY_KINDS)})`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_sign_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_sign_check check (${sql.raw(SIGN_AFTER)})`.execute(
    db,
  );
  await sql`alter table ledger_entries add column tip_id uuid references tips (id) on delete restrict`.execute(db);
  await sql`alter table ledger_entries add column technician_id uuid references users (id) on delete restrict`.execute(
    db,
  );
  await sql`alter table ledger_entries add constraint ledger_entries_tip_check
    check ((kind in ('tip', 'tip_payment', 'tip_void')) = (tip_id is not null and technician_id is not null))`.execute(
    db,
  );
  await sql`create index ledger_entries_tip_id_idx on ledger_entries (tip_id) where tip_id is not null`.execute(db);

  await invoicesTrigger(true).execute(db);
  for (const op of ["insert", "update"] as const) await tipsTrigger(op).execute(db);
  await sql`create trigger tips_ledger_insert after insert on tips
    referencing new table as new_tips for each statement execute function ledger_tips_insert_apply()`.execute(db);
  await sql`create trigger tips_ledger_update after update on tips
    referencing old table as old_tips new table as new_tips
    for each statement execute function ledger_tips_update_apply()`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger if exists tips_ledger_update on tips`.execute(db);
  await sql`drop trigger if exists tips_ledger_insert on tips`.execute(db);
  await sql`drop function if exists ledger_tips_insert_apply()`.execute(db);
  await sql`drop function if exists ledger_tips_update_apply()`.execute(db);
  await invoicesTrigger(false).execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_tip_check`.execute(db);
  await sql`alter table ledger_entries drop column technician_id`.execute(db);
  await sql`alter table ledger_entries drop column tip_id`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_sign_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_sign_check check (${sql.raw(SIGN_BEFORE)})`.execute(
    db,
  );
  await sql`alter table ledger_entries drop constraint ledger_entries_kind_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_kind_check
    check (${oneOf("kind", LEDGER_ENTRY_KINDS_BEFORE)})`.execute(db);
  await sql`alter table invoices drop column tip_cents`.execute(db);
  await sql`drop index if exists invoice_lines_tip_visit_key`.execute(db);
  await sql`alter table invoice_lines drop constraint invoice_lines_visit_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_visit_check
    check (kind in ('one_time_service', 'skip_credit') or visit_id is null)`.execute(db);
  await sql`alter table invoice_lines drop constraint if exists invoice_lines_kind_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_kind_check
    check (${oneOf("kind", INVOICE_LINE_KINDS_BEFORE)})`.execute(db);
  await sql`drop table if exists tips`.execute(db);
}
