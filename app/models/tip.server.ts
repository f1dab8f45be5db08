import { sql } from "kysely";
import type { Tip, TipWay } from "../../db/schema";
import type { Db } from "~/utils/db.server";

/**
 * Table access for tips (migration 0048, docs/decisions/131). Their ledger entries are written by
 * the database's trigger on `tips` (a card tip when it is marked paid, an invoice tip when an
 * invoice carries it); nothing here writes an entry.
 */

export type NewTip = {
  visitId: string;
  customerId: string;
  technicianId: string;
  amountCents: number;
  way: TipWay;
  givenOn: string;
};

/**
 * Stores the visit's tip, or returns null when the visit has one already (one tip per visit: a
 * double click or a second press finds the first).
 */
export async function insertTip(db: Db, tip: NewTip): Promise<Tip | null> {
  const row = await db
    .insertInto("tips")
    .values({
      visit_id: tip.visitId,
      customer_id: tip.customerId,
      technician_id: tip.technicianId,
      amount_cents: tip.amountCents,
      way: tip.way,
      given_on: tip.givenOn,
    })
    .onConflict((oc) => oc.column("visit_id").doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

export async function findTipOfVisit(db: Db, visitId: string): Promise<Tip | null> {
  return (await db.selectFrom("tips").selectAll().where("visit_id", "=", visitId).executeTakeFirst()) ?? null;
}

/** Marks a card tip paid by this PaymentIntent; false when it was already (its entries are written once). */
export async function markTipPaid(db: Db, tipId: string, paymentIntentId: string, paidAt: Date): Promise<boolean> {
  const result = await db
    .updateTable("tips")
    .set({ paid_at: paidAt, stripe_payment_intent_id: paymentIntentId })
    .where("id", "=", tipId)
    .where("way", "=", "card")
    .where("paid_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Forgets a card tip Stripe declined (nothing was charged and it has no entry), so the customer
 * may try again; a paid tip is never removed.
 */
export async function deleteDeclinedTip(db: Db, tipId: string): Promise<void> {
  await db.deleteFrom("tips").where("id", "=", tipId).where("way", "=", "card").where("paid_at", "is", null).execute();
}

export type UnbilledTip = Pick<Tip, "id" | "visit_id" | "customer_id" | "amount_cents"> & {
  technician_name: string;
  service_date: Date;
};

/**
 * Tips to go on the next invoice, not yet on one: of these customers, or the first `limit` after
 * `after` (by id) when no customers are named.
 */
export async function listUnbilledTips(
  db: Db,
  scope: { customerIds: readonly string[] } | { after: string | null; limit: number },
): Promise<UnbilledTip[]> {
  let query = db
    .selectFrom("tips as t")
    .innerJoin("services as s", "s.id", "t.visit_id")
    .innerJoin("users as u", "u.id", "t.technician_id")
    .leftJoin("profiles as p", "p.user_id", "t.technician_id")
    .select([
      "t.id",
      "t.visit_id",
      "t.customer_id",
      "t.amount_cents",
      "s.service_date",
      sql<string>`coalesce(nullif(p.full_name, ''), u.email)`.as("technician_name"),
    ])
    .where("t.way", "=", "invoice")
    .where("t.invoice_id", "is", null);
  if ("customerIds" in scope) {
    if (scope.customerIds.length === 0) return [];
    query = query.where("t.customer_id", "in", [...new Set(scope.customerIds)]).orderBy("t.id");
  } else {
    if (scope.after) query = query.where("t.id", ">", scope.after);
    query = query.orderBy("t.id").limit(scope.limit);
  }
  return query.execute();
}

/**
 * Points each tip whose line these invoices carry at its invoice (in the transaction that inserts
 * them): the trigger then enters the tip (`tip`, +) for its technician.
 */
export async function attachTipsToInvoices(trx: Db, invoiceIds: readonly string[]): Promise<void> {
  if (invoiceIds.length === 0) return;
  await sql`update tips t set invoice_id = l.invoice_id
    from invoice_lines l
    where l.kind = 'tip' and l.visit_id = t.visit_id and l.invoice_id = any(${sql.val([...invoiceIds])}::uuid[])
      and t.way = 'invoice' and t.invoice_id is distinct from l.invoice_id`.execute(trx);
}

export type TechnicianTips = {
  technician_id: string;
  technician_name: string;
  period_start: string;
  tips: number;
  cents: number;
  card_cents: number;
  invoice_cents: number;
};

/**
 * Each technician's tips per pay period of `days` days from `anchor` (a day), for the periods
 * that start on or after `from`: card tips once paid, invoice tips once an invoice that is not
 * void carries them. Newest period first, then by name.
 */
export async function listTechnicianTips(
  db: Db,
  period: { anchor: string; days: number; from: string },
): Promise<TechnicianTips[]> {
  const { rows } = await sql<TechnicianTips & { tips: string | number; cents: string | number }>`
    with counted as (
      select t.technician_id, t.amount_cents, t.way,
        ${period.anchor}::date
          + (floor((t.given_on - ${period.anchor}::date)::numeric / ${period.days}::int) * ${period.days}::int)::int as period_start
      from tips t
      left join invoices i on i.id = t.invoice_id
      where t.given_on >= ${period.from}::date
        and ((t.way = 'card' and t.paid_at is not null) or (t.way = 'invoice' and (i.id is null or i.status <> 'void')))
    )
    select c.technician_id, coalesce(nullif(p.full_name, ''), u.email) as technician_name,
      to_char(c.period_start, 'YYYY-MM-DD') as period_start, count(*) as tips, sum(c.amount_cents) as cents,
      coalesce(sum(c.amount_cents) filter (where c.way = 'card'), 0) as card_cents,
      coalesce(sum(c.amount_cents) filter (where c.way = 'invoice'), 0) as invoice_cents
    from counted c
    join users u on u.id = c.technician_id
    left join profiles p on p.user_id = c.technician_id
    where c.period_start >= ${period.from}::date
    group by c.technician_id, technician_name, c.period_start
    order by c.period_start desc, technician_name`.execute(db);
  return rows.map((row) => ({
    ...row,
    tips: Number(row.tips),
    cents: Number(row.cents),
    card_cents: Number(row.card_cents),
    invoice_cents: Number(row.invoice_cents),
  }));
}

/** The name a tip names its technician by: their profile's name, or their e-mail. */
export async function getTechnicianName(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("users as u")
    .leftJoin("profiles as p", "p.user_id", "u.id")
    .select(sql<string>`coalesce(nullif(p.full_name, ''), u.email)`.as("name"))
    .where("u.id", "=", userId)
    .executeTakeFirst();
  return row?.name ?? null;
}
