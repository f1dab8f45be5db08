import { sql, type Kysely } from "kysely";

const DISPUTE_ID = sql.raw(`'^(du|dp)_[A-Za-z0-9_]{1,250}$'`);

/** The payment reversals' ledger trigger as 0021 made it (restored by down). */
const REVERSALS_BEFORE = `insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, payment_id, reversal_id, entry_key)
     select i.customer_id, case n.kind when 'dispute_lost' then 'dispute_lost' else 'payment_reversed' end,
       n.amount_cents, n.reversed_on, i.id, p.id, n.id, 'reversal:' || n.id
     from new_rows n join payments p on p.id = n.payment_id join invoices i on i.id = p.invoice_id order by n.id`;

/**
 * The part of a lost dispute taken from a written-off invoice is written off with it: a second
 * entry of the same reversal (−written_off_cents), so the customer's balance moves by what is
 * owed again and the month's roll-forward shows both what the bank took and the loss.
 */
const REVERSALS_AFTER = `${REVERSALS_BEFORE};
     insert into ledger_entries (customer_id, kind, amount_cents, occurred_on, invoice_id, payment_id, reversal_id, entry_key)
     select i.customer_id, 'write_off', -n.written_off_cents, n.reversed_on, i.id, p.id, n.id, 'write-off:reversal:' || n.id
     from new_rows n join payments p on p.id = n.payment_id join invoices i on i.id = p.invoice_id
     where n.written_off_cents > 0 order by n.id`;

const reversalsTrigger = (body: string) =>
  sql.raw(`create or replace function ledger_payment_reversals_apply() returns trigger language plpgsql as $$
      begin
        ${body};
        return null;
      end
    $$`);

/**
 * Disputes one by one (docs/decisions/121):
 * - payment_disputes: each Stripe dispute of a payment, keyed by its id, open until Stripe closes
 *   it. A second dispute of the same payment after the first closed is a new row that holds the
 *   invoice's charges again (payments.disputed_at / dispute_closed_at stay the payment's summary,
 *   closed only when none of its disputes is open); a replayed event of a closed one finds its row.
 *   fee_cents: Stripe's dispute fee, net of a fee given back (the dispute's balance transactions),
 *   the business's cost: never a ledger entry.
 * - payment_reversals.from_credit_cents / written_off_cents: the part of a lost dispute taken
 *   from credit on file the payment had left, and the part taken from a written-off invoice,
 *   written off with it (a second ledger entry of the reversal).
 */
export async function up(db: Kysely<any>) {
  await sql`create table payment_disputes (
    stripe_dispute_id text primary key constraint payment_disputes_id_check check (stripe_dispute_id ~ ${DISPUTE_ID}),
    -- Cascade: a payment is never deleted here (its ledger entry restricts it); a test's cleanup may.
    payment_id uuid not null references payments (id) on delete cascade,
    status text not null constraint payment_disputes_status_check check (length(status) between 1 and 40),
    fee_cents integer not null default 0 constraint payment_disputes_fee_check check (fee_cents between 0 and 10000000),
    opened_at timestamptz not null,
    closed_at timestamptz,
    updated_at timestamptz not null default now()
  )`.execute(db);
  // underOpenDispute and a close's "is another still open" read only these few rows.
  await sql`create index payment_disputes_open_idx on payment_disputes (payment_id) where closed_at is null`.execute(
    db,
  );
  await sql`alter table payment_reversals
    add column from_credit_cents integer not null default 0,
    add column written_off_cents integer not null default 0,
    add constraint payment_reversals_parts_check check (
      from_credit_cents >= 0 and written_off_cents >= 0 and from_credit_cents + written_off_cents <= amount_cents
    ),
    add constraint payment_reversals_parts_kind_check check (
      (from_credit_cents = 0 and written_off_cents = 0) or kind = 'dispute_lost'
    )`.execute(db);
  await reversalsTrigger(REVERSALS_AFTER).execute(db);
}

export async function down(db: Kysely<any>) {
  await reversalsTrigger(REVERSALS_BEFORE).execute(db);
  await sql`alter table payment_reversals drop constraint payment_reversals_parts_kind_check,
    drop constraint payment_reversals_parts_check, drop column written_off_cents, drop column from_credit_cents`.execute(
    db,
  );
  await sql`drop table if exists payment_disputes`.execute(db);
}
