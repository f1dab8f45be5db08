import { sql } from "kysely";
import type { CustomerPlan, SkipReason, Visit, VisitStatus, VisitType } from "../../db/schema";
import type { Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

/**
 * Table access for the visits made from customer plans (docs/decisions/090, 091): the plans the
 * generator walks, the slots that already have a visit, the multi-row insert, and the managed
 * visits that sit on a closed day. Every query takes the caller's handle: the generator runs on
 * one pinned connection (its advisory lock is held by that session).
 */

/** What the generator reads of a plan: its calendar and its customer, nothing else. */
export type PlanForVisits = Pick<
  CustomerPlan,
  | "id"
  | "customer_id"
  | "visits_per_week"
  | "weekdays"
  | "start_date"
  | "schedule_from"
  | "status"
  | "paused_from"
  | "paused_until"
  | "last_visit_date"
  | "payment_hold_from"
>;

const PLAN_COLUMNS = [
  "id",
  "customer_id",
  "visits_per_week",
  "weekdays",
  "start_date",
  "schedule_from",
  "status",
  "paused_from",
  "paused_until",
  "last_visit_date",
  "payment_hold_from",
] as const;

/**
 * One keyset batch of the plans that make visits (active or paused), in id order after `afterId`:
 * the partial index customer_plans_open_id_idx serves it.
 */
export async function listOpenPlansBatch(db: Db, afterId: string | null, limit: number): Promise<PlanForVisits[]> {
  let query = db
    .selectFrom("customer_plans")
    .select(PLAN_COLUMNS)
    .where("status", "<>", "cancelled")
    .orderBy("id")
    .limit(limit);
  if (afterId) query = query.where("id", ">", afterId);
  return query.execute();
}

/** One keyset batch of the cancelled plans whose last visit is on or after `day` (few: the notice). */
export async function listEndingPlansBatch(
  db: Db,
  day: string,
  afterId: string | null,
  limit: number,
): Promise<PlanForVisits[]> {
  let query = db
    .selectFrom("customer_plans")
    .select(PLAN_COLUMNS)
    .where("status", "=", "cancelled")
    .where("last_visit_date", ">=", day)
    .orderBy("id")
    .limit(limit);
  if (afterId) query = query.where("id", ">", afterId);
  return query.execute();
}

/**
 * Locks these plans (FOR SHARE, in id order) for the rest of the transaction and reads them as
 * they are now: a plan change (which locks its plan FOR UPDATE) waits for the visits made from the
 * plan as read here, or has committed before and is read here.
 */
export async function lockPlansForVisits(db: Db, planIds: readonly string[]): Promise<PlanForVisits[]> {
  if (planIds.length === 0) return [];
  return db
    .selectFrom("customer_plans")
    .select(PLAN_COLUMNS)
    .where(sql<boolean>`id = any(${[...planIds]}::uuid[])`)
    .orderBy("id")
    .forShare()
    .execute();
}

/** The slots from `from` to `to` (days) that these plans already have a visit for, as "planId day". */
export async function findExistingSlots(db: Db, planIds: readonly string[], from: string, to: string) {
  const taken = new Set<string>();
  if (planIds.length === 0) return taken;
  const rows = await db
    .selectFrom("services")
    .select(["plan_id", "plan_slot"])
    // One array parameter rather than a thousand: the unique index (plan_id, plan_slot) serves it.
    .where(sql<boolean>`plan_id = any(${[...planIds]}::uuid[])`)
    .where("plan_slot", ">=", from)
    .where("plan_slot", "<=", to)
    .execute();
  for (const row of rows) taken.add(`${row.plan_id} ${row.plan_slot}`);
  return taken;
}

export type NewPlanVisit = {
  customer_id: string;
  service_type: VisitType;
  service_date: Date;
  status: Extract<VisitStatus, "scheduled" | "skipped">;
  skip_reason: SkipReason | null;
  plan_id: string;
  plan_slot: string;
};

/**
 * One INSERT of plan visits, however many: the rows go as seven array parameters that the
 * statement unnests (`insert ... select ... from unnest(...)`), so the statement's text and its
 * parameters stay the same size whatever the batch (a multi-row VALUES list has 7 parameters a
 * row, is capped at 65,535, and costs Node and PostgreSQL a parse of its own each time). A slot
 * that has a visit already (another run, another machine) is left alone: ON CONFLICT on the
 * partial unique index services_plan_id_plan_slot_key. Returns how many rows were inserted.
 */
export async function insertPlanVisits(db: Db, rows: readonly NewPlanVisit[]): Promise<number> {
  if (rows.length === 0) return 0;
  const n = rows.length;
  const customerIds = new Array<string>(n);
  const types = new Array<string>(n);
  const startsAt = new Array<string>(n);
  const statuses = new Array<string>(n);
  const skipReasons = new Array<string | null>(n);
  const planIds = new Array<string>(n);
  const slots = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    customerIds[i] = row.customer_id;
    types[i] = row.service_type;
    startsAt[i] = row.service_date.toISOString();
    statuses[i] = row.status;
    skipReasons[i] = row.skip_reason;
    planIds[i] = row.plan_id;
    slots[i] = row.plan_slot;
  }
  const result = await sql`insert into services
      (customer_id, service_type, service_date, status, skip_reason, plan_id, plan_slot)
    select * from unnest(${customerIds}::uuid[], ${types}::text[], ${startsAt}::timestamptz[],
      ${statuses}::text[], ${skipReasons}::text[], ${planIds}::uuid[], ${slots}::date[])
    on conflict (plan_id, plan_slot) where plan_id is not null do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** A visit that still follows its plan: made from it, never changed by hand, still scheduled. */
export type ManagedVisit = { id: string; plan_slot: string; service_date: Date };

/**
 * One keyset batch of the managed visits (plan_id set, plan_left_at null, scheduled) that start
 * in [from, until): the visits of one day, from now on. Served by services_status_service_date_idx.
 */
export async function listManagedVisitsBetween(
  db: Db,
  from: Date,
  until: Date,
  after: { date: Date; id: string } | null,
  limit: number,
): Promise<ManagedVisit[]> {
  let query = db
    .selectFrom("services")
    .select(["id", "plan_slot", "service_date"])
    .where("status", "=", "scheduled")
    .where("service_date", ">=", from)
    .where("service_date", "<", until)
    .where("plan_id", "is not", null)
    .where("plan_left_at", "is", null)
    .orderBy("service_date")
    .orderBy("id")
    .limit(limit);
  if (after) query = query.where(sql<boolean>`(service_date, id) > (${after.date}, ${after.id}::uuid)`);
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, plan_slot: row.plan_slot!, service_date: row.service_date }));
}

/**
 * Moves managed visits to new start times in one statement, each only if it is still what it was
 * read as (scheduled, following its plan, at the same time): a visit that a customer skipped or
 * an admin changed meanwhile is left alone. Returns the ids moved.
 */
export async function moveManagedVisits(
  db: Db,
  moves: readonly { id: string; from: Date; to: Date }[],
): Promise<string[]> {
  if (moves.length === 0) return [];
  const values = sql.join(
    moves.map((move) => sql`(${move.id}::uuid, ${move.from}::timestamptz, ${move.to}::timestamptz)`),
  );
  const result = await sql<{ id: string }>`update services as s
    set service_date = m.to_date, updated_at = now()
    from (values ${values}) as m (id, from_date, to_date)
    where s.id = m.id and s.service_date = m.from_date and s.status = 'scheduled'
      and s.plan_id is not null and s.plan_left_at is null
    returning s.id`.execute(db);
  return result.rows.map((row) => row.id);
}

/** Cancels managed visits that have no day left to go to (still scheduled and untouched only). */
export async function cancelManagedVisits(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable("services")
    .set({ status: "cancelled", updated_at: new Date() })
    .where("id", "in", [...ids])
    .where("status", "=", "scheduled")
    .where("plan_id", "is not", null)
    .where("plan_left_at", "is", null)
    .returning("id")
    .execute();
  return rows.map((row) => row.id);
}

/** History lines of many visits in one INSERT (service_events). */
export async function recordVisitEvents(
  db: Db,
  events: readonly {
    visitId: string;
    kind: "rescheduled" | "status";
    from: VisitStatus;
    to: VisitStatus;
    detail: string;
  }[],
) {
  if (events.length === 0) return;
  await db
    .insertInto("service_events")
    .values(
      events.map((event) => ({
        service_id: event.visitId,
        actor_id: null,
        kind: event.kind,
        from_status: event.from,
        to_status: event.to,
        detail: event.detail.slice(0, 1000),
      })),
    )
    .execute();
}

/** A visit a plan change makes (the generator's row). */
export type PlanVisitRow = NewPlanVisit;

/**
 * The plan's visits that still follow it (not changed by hand) and are still to come, starting at
 * or after `from`: the ones a plan change may move, skip, restore or remove. Locked for the
 * transaction.
 */
export async function lockFollowingVisitsFrom(db: Db, planId: string, from: Date) {
  return db
    .selectFrom("services")
    .select(["id", "plan_slot", "service_date", "service_type", "status", "skip_reason"])
    .where("plan_id", "=", planId)
    .where("plan_left_at", "is", null)
    .where("status", "in", ["scheduled", "skipped"])
    .where("service_date", ">=", from)
    .orderBy("service_date")
    .forUpdate()
    .execute();
}

export async function setPlanVisit(
  db: Db,
  visitId: string,
  patch: { status?: VisitStatus; skip_reason?: SkipReason | null; service_date?: Date; service_type?: VisitType },
) {
  await db
    .updateTable("services")
    .set({ ...patch, updated_at: new Date() })
    .where("id", "=", visitId)
    .execute();
}

/** Removes a visit the plan no longer has, unless it holds photos or videos (then it is kept). */
export async function deletePlanVisitWithoutMedia(db: Db, visitId: string): Promise<boolean> {
  const result = await db
    .deleteFrom("services")
    .where("id", "=", visitId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("service_images").select("id").whereRef("service_images.service_id", "=", "services.id"))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The day (business time) of the plan's latest visit that happens before `before`, if any. */
export async function lastPlanVisitBefore(db: Db, planId: string, before: Date): Promise<Date | null> {
  const row = await db
    .selectFrom("services")
    .select("service_date")
    .where("plan_id", "=", planId)
    .where("status", "in", ["scheduled", "completed", "missed"])
    .where("service_date", "<", before)
    .orderBy("service_date", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.service_date ?? null;
}

/**
 * The plan of this customer's visit, read without a lock (null when the visit is not theirs or
 * has no plan): a plan change locks the plan first and then its visits, so a visit's own change
 * learns its plan here, locks the plan, and only then locks the visit (docs/decisions/112).
 */
export async function findCustomerVisitPlanId(db: Db, visitId: string, customerId: string): Promise<string | null> {
  if (!isUuid(visitId) || !isUuid(customerId)) return null;
  const row = await db
    .selectFrom("services")
    .select("plan_id")
    .where("id", "=", visitId)
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  return row?.plan_id ?? null;
}

/** A visit of this customer, locked for the transaction; null when it is not theirs. */
export async function lockCustomerVisit(db: Db, visitId: string, customerId: string): Promise<Visit | null> {
  if (!isUuid(visitId) || !isUuid(customerId)) return null;
  return (
    (await db
      .selectFrom("services")
      .selectAll()
      .where("id", "=", visitId)
      .where("customer_id", "=", customerId)
      .forUpdate()
      .executeTakeFirst()) ?? null
  );
}

/** Used by tests and benches to count a plan's visits by status. */
export async function countPlanVisits(db: Db, planId: string) {
  return db
    .selectFrom("services")
    .select(["status", sql<number>`count(*)::int`.as("count")])
    .where("plan_id", "=", planId)
    .groupBy("status")
    .execute();
}
