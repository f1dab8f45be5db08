import { sql } from "kysely";
import { invoiceNumber } from "../../db/enums";
import type { CustomerPlan, InvoiceLineKind, Visit, VisitStatus } from "../../db/schema";
import { allocateNumber } from "./number-counters.server";
import { attachTipsToInvoices } from "./tip.server";
import type { Db } from "~/utils/db.server";

/**
 * Table access for the billing run (docs/decisions/101): the plans it bills in keyset batches,
 * the visits it settles, and the one transaction that numbers and inserts a batch's invoices.
 * Every query takes the caller's handle (the run holds its advisory lock on one connection).
 */

export type PlanToBill = Pick<
  CustomerPlan,
  | "id"
  | "customer_id"
  | "catalogue_plan_id"
  | "catalogue_plan_name"
  | "visits_per_week"
  | "weekdays"
  | "dog_count"
  | "start_date"
  | "price_cents"
  | "add_on_cents"
  | "pending_price_cents"
  | "pending_add_on_cents"
  | "pending_price_from"
>;

/** One keyset batch of the plans that are billed (active or paused), in id order. */
export async function listPlansToBillBatch(db: Db, afterId: string | null, limit: number): Promise<PlanToBill[]> {
  let query = db
    .selectFrom("customer_plans")
    .select([
      "id",
      "customer_id",
      "catalogue_plan_id",
      "catalogue_plan_name",
      "visits_per_week",
      "weekdays",
      "dog_count",
      "start_date",
      "price_cents",
      "add_on_cents",
      "pending_price_cents",
      "pending_add_on_cents",
      "pending_price_from",
    ])
    .where("status", "<>", "cancelled")
    .orderBy("id")
    .limit(limit);
  if (afterId) query = query.where("id", ">", afterId);
  return query.execute();
}

/** Of these plans, the ones that have an invoice for the month already. */
export async function findInvoicedPlans(db: Db, planIds: readonly string[], period: string): Promise<Set<string>> {
  if (planIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("invoices")
    .select("plan_id")
    .where("plan_id", "in", planIds)
    .where("period_month", "=", period)
    .execute();
  return new Set(rows.map((row) => row.plan_id!));
}

export type VisitToCredit = Pick<
  Visit,
  "id" | "plan_id" | "status" | "skip_reason" | "missed_reason" | "service_date" | "plan_left_at"
> & {
  plan_slot: string;
  /** When it took its status: its latest change to it, or, made so (a pause), its creation. */
  changed_at: Date;
  /** Cancelled by the generator: its day closed with no open weekday to move to (decision 091). */
  closed_day: boolean;
  /** A missed visit with a live return visit: the customer got the service after all. */
  returned: boolean;
  /** Credited already, on an invoice or a credit note (each visit once). */
  credited: boolean;
};

/**
 * The visits of these plans whose slots fall in [from, until) that a credit may be owed for
 * (docs/decisions/115): with `statuses`, only those; the caller's rule (visit-credits.ts) decides.
 * A closed day's cancellation is known by its history line, which ends with `closedDayDetail`.
 * The (plan_id, plan_slot) unique index serves the range.
 */
export async function listVisitsToCredit(
  db: Db,
  planIds: readonly string[],
  range: { from: string; until: string },
  options: { statuses?: readonly VisitStatus[]; closedDayDetail: string; uncreditedOnly?: boolean },
): Promise<VisitToCredit[]> {
  if (planIds.length === 0) return [];
  let query = db
    .selectFrom("services as s")
    .select([
      "s.id",
      "s.plan_id",
      "s.plan_slot",
      "s.status",
      "s.skip_reason",
      "s.missed_reason",
      "s.service_date",
      "s.plan_left_at",
      (eb) =>
        eb.fn
          .coalesce(
            eb
              .selectFrom("service_events as e")
              .select((inner) => inner.fn.max("e.created_at").as("at"))
              .whereRef("e.service_id", "=", "s.id")
              .whereRef("e.to_status", "=", "s.status"),
            "s.created_at",
          )
          .as("changed_at"),
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom("service_events as e")
              .select("e.id")
              .whereRef("e.service_id", "=", "s.id")
              .where("e.to_status", "=", "cancelled")
              .where("e.detail", "like", `%${options.closedDayDetail}`),
          )
          .as("closed_day"),
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom("services as r")
              .select("r.id")
              .whereRef("r.return_visit_of", "=", "s.id")
              .where("r.status", "<>", "cancelled"),
          )
          .as("returned"),
      (eb) =>
        eb
          .or([
            eb.exists(
              eb
                .selectFrom("invoice_lines as l")
                .select("l.id")
                .whereRef("l.visit_id", "=", "s.id")
                .where("l.kind", "=", "skip_credit"),
            ),
            eb.exists(eb.selectFrom("credit_note_lines as c").select("c.id").whereRef("c.visit_id", "=", "s.id")),
          ])
          .as("credited"),
    ])
    .where("s.plan_id", "in", planIds)
    .where("s.plan_slot", ">=", range.from)
    .where("s.plan_slot", "<", range.until);
  if (options.statuses) query = query.where("s.status", "in", [...options.statuses]);
  const rows = await query.execute();
  return rows
    .map((row) => ({
      ...row,
      changed_at: new Date(row.changed_at as Date | string),
      closed_day: Boolean(row.closed_day),
      returned: Boolean(row.returned),
      credited: Boolean(row.credited),
    }))
    .filter((row) => !options.uncreditedOnly || !row.credited) as VisitToCredit[];
}

export type OneTimeVisit = Pick<Visit, "id" | "customer_id" | "service_type" | "service_date"> & {
  /** A return visit: the day of the visit it made up, and what that visit was credited (cents). */
  made_up: { service_date: Date; credited_cents: number } | null;
};

/** The plan visits' own types: a plan's month pays for them, not a line each. */
const PLAN_VISIT_TYPES = ["Weekly Service", "Twice Weekly Service", "Thrice Weekly Service"] as const;

/**
 * Completed visits not made from a plan (one-time services, and return visits) in [from, until)
 * that no invoice bills yet: of these customers, or of anyone after `after` (a keyset over
 * (service_date, id)). The partial index services_one_time_completed_idx (0021) serves both.
 * A return visit of a plan's visit is among them only when that visit was credited (decision
 * 125): its credit, given back when it was missed, is what the return visit bills. What a visit
 * was credited is its credit lines on invoices not voided and on credit notes (a void's note
 * gives back the voided invoice's line, so each credit counts once).
 */
export async function listUnbilledOneTimeVisits(
  db: Db,
  range: { from: Date; until: Date },
  scope: { customerIds: readonly string[] } | { after: { date: Date; id: string } | null; limit: number },
): Promise<OneTimeVisit[]> {
  const credited = sql<number>`(
    coalesce((select sum(-l.amount_cents) from invoice_lines l join invoices i on i.id = l.invoice_id
      where l.visit_id = m.id and l.kind = 'skip_credit' and i.status <> 'void'), 0)
    + coalesce((select sum(c.amount_cents) from credit_note_lines c where c.visit_id = m.id), 0))::int`;
  let query = db
    .selectFrom("services as s")
    .leftJoin("services as m", "m.id", "s.return_visit_of")
    .select(["s.id", "s.customer_id", "s.service_type", "s.service_date", "m.service_date as made_up_date"])
    .select(sql<number | null>`case when m.id is null then null else ${credited} end`.as("made_up_cents"))
    .where("s.status", "=", "completed")
    .where("s.plan_id", "is", null)
    .where((eb) => eb.or([eb("s.service_type", "not in", PLAN_VISIT_TYPES), eb("s.return_visit_of", "is not", null)]))
    .where("s.service_date", ">=", range.from)
    .where("s.service_date", "<", range.until)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("invoice_lines as l")
            .select("l.id")
            .whereRef("l.visit_id", "=", "s.id")
            .where("l.kind", "=", "one_time_service"),
        ),
      ),
    );
  if ("customerIds" in scope) {
    if (scope.customerIds.length === 0) return [];
    query = query.where("s.customer_id", "in", scope.customerIds).orderBy("s.service_date").orderBy("s.id");
  } else {
    const after = scope.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb("s.service_date", ">", after.date),
          eb.and([eb("s.service_date", "=", after.date), eb("s.id", ">", after.id)]),
        ]),
      );
    }
    query = query.orderBy("s.service_date").orderBy("s.id").limit(scope.limit);
  }
  return (await query.execute()).map(({ made_up_date, made_up_cents, ...visit }) => ({
    ...visit,
    made_up:
      made_up_date === null
        ? null
        : { service_date: new Date(made_up_date), credited_cents: Number(made_up_cents ?? 0) },
  }));
}

export type DraftLine = {
  kind: InvoiceLineKind;
  description: string;
  visitId: string | null;
  amountCents: number;
  /** A plan change's adjustment this line bills (marked billed in the same transaction). */
  adjustmentId?: string;
};
export type DraftInvoice = {
  customerId: string;
  planId: string | null;
  lines: DraftLine[];
  /** The month it bills, when not the run's (a plan's first month started after its billing date). */
  period?: string;
};

/**
 * Numbers and inserts these invoices for the month, open from `issuedOn`, in one transaction
 * (the caller's `trx`). The year's counter row is locked first (FOR UPDATE), so every transaction
 * that numbers invoices waits for the one before it; the invoices that already exist are then
 * read again (a run that held the lock before this one has committed them) and left out, so the
 * inserts cannot conflict and the numbers have no gaps. Returns the invoices inserted (their
 * e-mails are queued in the same transaction).
 */
export async function insertInvoices(
  trx: Db,
  drafts: readonly DraftInvoice[],
  invoice: { period: string; issuedOn: string; dueOn: string; footer: string | null; issuedAt: Date },
): Promise<InsertedInvoice[]> {
  if (drafts.length === 0) return [];
  const year = Number(invoice.issuedOn.slice(0, 4));
  await trx
    .insertInto("invoice_number_counters")
    .values({ year, last_number: 0 })
    .onConflict((oc) => oc.column("year").doNothing())
    .execute();
  const counter = await trx
    .selectFrom("invoice_number_counters")
    .select("last_number")
    .where("year", "=", year)
    .forUpdate()
    .executeTakeFirstOrThrow();

  const periodOf = (draft: DraftInvoice) => draft.period ?? invoice.period;
  const takenPlans = new Set<string>();
  for (const period of new Set(drafts.map(periodOf))) {
    const planIds = drafts.flatMap((draft) => (draft.planId && periodOf(draft) === period ? [draft.planId] : []));
    for (const planId of await findInvoicedPlans(trx, planIds, period)) takenPlans.add(`${planId} ${period}`);
  }
  // A visit another run billed or credited meanwhile (committed before the lock) is left out.
  const visitIds = drafts.flatMap((draft) => draft.lines.flatMap((line) => (line.visitId ? [line.visitId] : [])));
  const settled = new Set(
    visitIds.length === 0
      ? []
      : (
          await trx.selectFrom("invoice_lines").select(["visit_id", "kind"]).where("visit_id", "in", visitIds).execute()
        ).map((row) => `${row.kind} ${row.visit_id}`),
  );
  const fresh = drafts
    .filter((draft) => !draft.planId || !takenPlans.has(`${draft.planId} ${periodOf(draft)}`))
    .map((draft) => ({
      ...draft,
      lines: draft.lines.filter((line) => !line.visitId || !settled.has(`${line.kind} ${line.visitId}`)),
    }))
    .filter((draft) => draft.lines.length > 0);
  if (fresh.length === 0) return [];

  let next = counter.last_number;
  const inserted = await trx
    .insertInto("invoices")
    .values(
      fresh.map((draft) => {
        next += 1;
        const total = draft.lines.reduce((sum, line) => sum + line.amountCents, 0);
        const tips = draft.lines.reduce((sum, line) => sum + (line.kind === "tip" ? line.amountCents : 0), 0);
        // Credits that cover the charges: nothing to pay, so it is settled as it is issued, and
        // what it credits beyond its charges is credit on file (docs/decisions/113).
        const settled = total <= 0;
        return {
          number: invoiceNumber(year, next),
          customer_id: draft.customerId,
          plan_id: draft.planId,
          period_month: periodOf(draft),
          status: settled ? ("paid" as const) : ("open" as const),
          paid_at: settled ? invoice.issuedAt : null,
          issued_on: invoice.issuedOn,
          due_on: invoice.dueOn,
          total_cents: total,
          tip_cents: tips,
          footer: invoice.footer,
        };
      }),
    )
    .returning(["id", "plan_id", "customer_id", "number", "total_cents", "period_month"])
    .execute();
  await trx.updateTable("invoice_number_counters").set({ last_number: next }).where("year", "=", year).execute();

  const keyOf = (owner: string, period: string | Date) =>
    `${owner} ${typeof period === "string" ? period.slice(0, 10) : period.toISOString().slice(0, 10)}`;
  const idOf = new Map(
    inserted.map((row) => [keyOf(row.plan_id ?? `customer:${row.customer_id}`, row.period_month), row.id]),
  );
  const lines = fresh.flatMap((draft) => {
    const invoiceId = idOf.get(keyOf(draft.planId ?? `customer:${draft.customerId}`, periodOf(draft)))!;
    return draft.lines.map((line, position) => ({
      invoice_id: invoiceId,
      kind: line.kind,
      description: line.description,
      visit_id: line.visitId,
      amount_cents: line.amountCents,
      position,
    }));
  });
  for (let start = 0; start < lines.length; start += 2000) {
    await trx
      .insertInto("invoice_lines")
      .values(lines.slice(start, start + 2000))
      .execute();
  }
  // The tips these invoices carry are now owed, each entered for its technician (decision 131).
  if (lines.some((line) => line.kind === "tip"))
    await attachTipsToInvoices(
      trx,
      inserted.map((row) => row.id),
    );
  return inserted.map((row) => ({ ...row, period_month: keyOf("", row.period_month).trim() }));
}

export type InsertedInvoice = {
  id: string;
  plan_id: string | null;
  customer_id: string;
  number: string;
  total_cents: number;
  /** The month it bills ("YYYY-MM-01"). */
  period_month?: string;
  /** Credit on file that paid part of it when it was issued. */
  credit_applied_cents?: number;
};

/** What credit on file paid of these invoices (after applyCreditOnFile, in the same transaction). */
export async function readCreditApplied(trx: Db, invoiceIds: readonly string[]): Promise<Map<string, number>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom("invoices")
    .select(["id", "credit_applied_cents"])
    .where("id", "in", invoiceIds)
    .where("credit_applied_cents", ">", 0)
    .execute();
  return new Map(rows.map((row) => [row.id, row.credit_applied_cents]));
}

export type InvoiceRecipient = {
  id: string;
  email: string;
  /** The card on file, when the customer has one (Stripe's brand, e.g. "visa", and last 4). */
  card_brand: string | null;
  card_last4: string | null;
};

/**
 * Where these customers' invoice e-mails go, with their card on file, in one query (a batch of
 * the billing run). A user that is gone is not in the answer.
 */
export async function listInvoiceRecipients(db: Db, customerIds: readonly string[]): Promise<InvoiceRecipient[]> {
  if (customerIds.length === 0) return [];
  return db
    .selectFrom("users as u")
    .leftJoin("stripe_customers as sc", (join) =>
      join.onRef("sc.user_id", "=", "u.id").on("sc.payment_method_id", "is not", null),
    )
    .select(["u.id", "u.email", "sc.card_brand", "sc.card_last4"])
    .where("u.id", "in", [...new Set(customerIds)])
    .execute();
}

/** The invoices of a month, for the run's summary and the tests. */
export async function countInvoicesOf(db: Db, period: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from invoices where period_month = ${period}`.execute(db);
  return rows[0]?.n ?? 0;
}

export type MonthBilling = {
  plan_id: string;
  month: string;
  /** What the plan's invoice for the month charged for it (its month or prorated month line, and a change's adjustments). */
  billed: number;
  /** The visit credits already given for that month: skip_credit lines and credit note lines. */
  credited: number;
};

/**
 * What each of these plans was billed for each month from `fromMonth` to before `untilMonth`, and
 * what was credited since for visits of those months (on invoices and credit notes): a month's
 * credits never exceed what was billed for it (docs/decisions/113, 115).
 */
export async function listMonthBilling(
  db: Db,
  planIds: readonly string[],
  fromMonth: string,
  untilMonth: string,
): Promise<MonthBilling[]> {
  if (planIds.length === 0) return [];
  const { rows } = await sql<{
    plan_id: string;
    month: string | Date;
    billed: string | number;
    credited: string | number;
  }>`
    with billed as (
      select i.plan_id, i.period_month as month, sum(l.amount_cents)::int8 as billed
      from invoices i join invoice_lines l on l.invoice_id = i.id
      where i.plan_id = any(${sql.val([...planIds])}::uuid[]) and i.period_month >= ${fromMonth}
        and i.period_month < ${untilMonth} and i.status <> 'void'
        and l.kind in ('plan_month', 'prorated_month')
      group by i.plan_id, i.period_month
    ), adjusted as (
      -- A plan change's adjustments of the month (decision 117), on a later invoice that is not void.
      select a.plan_id, a.month, sum(a.amount_cents)::int8 as adjusted
      from plan_adjustments a left join invoices ai on ai.id = a.invoice_id
      -- One a credit note gave back counts whatever became of its invoice (decision 120).
      where a.plan_id = any(${sql.val([...planIds])}::uuid[]) and a.month >= ${fromMonth}
        and a.month < ${untilMonth} and (ai.id is null or ai.status <> 'void'
          or exists (select 1 from credit_note_lines g where g.adjustment_id = a.id))
      group by a.plan_id, a.month
    ), credited as (
      select plan_id, month, sum(cents)::int8 as credited from (
        select s.plan_id, date_trunc('month', s.plan_slot)::date as month, -l.amount_cents as cents
        from services s join invoice_lines l on l.visit_id = s.id and l.kind = 'skip_credit'
        join invoices li on li.id = l.invoice_id
        -- A voided invoice's credits came back on a credit note (decision 120): counted there.
        where s.plan_id = any(${sql.val([...planIds])}::uuid[]) and s.plan_slot >= ${fromMonth}
          and s.plan_slot < ${untilMonth} and li.status <> 'void'
        union all
        -- What a credit note gave back for a visit (0028): its lines name their plan's month. A
        -- plan change's adjustment given back is not a visit's credit: it is in "adjusted".
        select c.plan_id, c.month, c.amount_cents
        from credit_note_lines c
        where c.plan_id = any(${sql.val([...planIds])}::uuid[]) and c.month >= ${fromMonth} and c.month < ${untilMonth}
          and c.adjustment_id is null
      ) given
      group by plan_id, month
    )
    select b.plan_id, b.month, b.billed + coalesce(a.adjusted, 0) as billed, coalesce(c.credited, 0) as credited
    from billed b left join credited c on c.plan_id = b.plan_id and c.month = b.month
    left join adjusted a on a.plan_id = b.plan_id and a.month = b.month`.execute(db);
  return rows.map((row) => ({
    plan_id: row.plan_id,
    month: typeof row.month === "string" ? row.month.slice(0, 10) : row.month.toISOString().slice(0, 10),
    billed: Number(row.billed),
    credited: Number(row.credited),
  }));
}

/** The first month any invoice was made for: services from its settlement window on are billed. */
export async function firstInvoicedMonth(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom("invoices")
    .select((eb) => eb.fn.min("period_month").as("first"))
    .executeTakeFirst();
  return (row?.first as string | null | undefined) ?? null;
}

/** The year's next invoice number, its counter row locked for the rest of the transaction. */
export async function allocateInvoiceNumber(trx: Db, year: number): Promise<number> {
  return allocateNumber(trx, "invoice_number_counters", year);
}

/**
 * Issues a voided invoice again: a new open invoice of the same customer, plan, month, lines and
 * footer, numbered now. Its lines take over the visits the void one billed or credited (each visit
 * stays on one live invoice), and the void one points to it. Returns the new invoice's id.
 */
export async function insertReissue(
  trx: Db,
  old: { id: string; customer_id: string; plan_id: string | null; period_month: string; footer: string | null },
  issue: { number: string; issuedOn: string; issuedAt: Date },
): Promise<{ id: string; total_cents: number }> {
  // Its credits were given back by the void's credit note (decision 120): only its charges,
  // positive adjustments included, are issued again.
  const lines = await trx
    .selectFrom("invoice_lines")
    .selectAll()
    .where("invoice_id", "=", old.id)
    .where("amount_cents", ">=", 0)
    .orderBy("position")
    .execute();
  const total = lines.reduce((sum, line) => sum + line.amount_cents, 0);
  const tips = lines.reduce((sum, line) => sum + (line.kind === "tip" ? line.amount_cents : 0), 0);
  await trx.updateTable("invoice_lines").set({ visit_id: null }).where("invoice_id", "=", old.id).execute();
  const settled = total <= 0;
  const created = await trx
    .insertInto("invoices")
    .values({
      number: issue.number,
      customer_id: old.customer_id,
      plan_id: old.plan_id,
      period_month: old.period_month,
      status: settled ? "paid" : "open",
      paid_at: settled ? issue.issuedAt : null,
      issued_on: issue.issuedOn,
      due_on: issue.issuedOn,
      total_cents: total,
      tip_cents: tips,
      footer: old.footer,
    })
    .returning(["id", "total_cents"])
    .executeTakeFirstOrThrow();
  if (lines.length > 0) {
    await trx
      .insertInto("invoice_lines")
      .values(
        lines.map((line) => ({
          invoice_id: created.id,
          kind: line.kind,
          description: line.description,
          visit_id: line.visit_id,
          amount_cents: line.amount_cents,
          position: line.position,
        })),
      )
      .execute();
  }
  // Its tips (given back by the void's tip_void entries) are owed again on the new one (decision 131).
  if (tips > 0) await attachTipsToInvoices(trx, [created.id]);
  // The upgrades' adjustments it bills are billed by the new invoice.
  await trx
    .updateTable("plan_adjustments")
    .set({ invoice_id: created.id })
    .where("invoice_id", "=", old.id)
    .where("amount_cents", ">", 0)
    .execute();
  await trx
    .updateTable("invoices")
    .set({ reissued_as: created.id, updated_at: issue.issuedAt })
    .where("id", "=", old.id)
    .execute();
  return created;
}

export type VisitCreditLine = {
  visit_id: string;
  plan_id: string;
  slot: string;
  description: string;
  /** The credit given, positive cents (the line's amount is negative). */
  cents: number;
};

/** The visit credits (skip_credit lines) on an invoice, with the plan and day each credited. */
export async function listVisitCreditLines(db: Db, invoiceId: string): Promise<VisitCreditLine[]> {
  const rows = await db
    .selectFrom("invoice_lines as l")
    .innerJoin("services as s", "s.id", "l.visit_id")
    .select(["l.visit_id", "s.plan_id", "s.plan_slot", "l.description", "l.amount_cents"])
    .where("l.invoice_id", "=", invoiceId)
    .where("l.kind", "=", "skip_credit")
    .where("l.amount_cents", "<", 0)
    .where("s.plan_id", "is not", null)
    .where("s.plan_slot", "is not", null)
    .orderBy("l.position")
    .execute();
  return rows.map((row) => ({
    visit_id: row.visit_id!,
    plan_id: row.plan_id!,
    slot:
      typeof row.plan_slot === "string"
        ? row.plan_slot.slice(0, 10)
        : (row.plan_slot as unknown as Date).toISOString().slice(0, 10),
    description: row.description,
    cents: -row.amount_cents,
  }));
}
