import { sql } from "kysely";
import type { SkipReason, Visit, VisitStatus, VisitType } from "../../db/schema";
import type { Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

/** Table access for the visits made from customer plans (docs/decisions/090). */

export type PlanVisitRow = {
  customer_id: string;
  plan_id: string;
  plan_slot: string;
  service_type: VisitType;
  service_date: Date;
  status: "scheduled" | "skipped";
  skip_reason: SkipReason | null;
};

/** Inserts visits a plan should have; a slot the plan already has is left as it is. */
export async function insertPlanVisits(db: Db, rows: readonly PlanVisitRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db
    .insertInto("services")
    .values(rows.map((row) => ({ ...row, notes: null, created_by: null })))
    .onConflict((oc) => oc.columns(["plan_id", "plan_slot"]).where("plan_id", "is not", null).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

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

/** The plan's visits from `from` on, soonest first (what "Upcoming visits" lists). */
export async function listPlanVisitsFrom(db: Db, planId: string, from: Date, limit: number) {
  return db
    .selectFrom("services")
    .select(["id", "service_date", "service_type", "status", "skip_reason", "plan_left_at"])
    .where("plan_id", "=", planId)
    .where("service_date", ">=", from)
    .where("status", "in", ["scheduled", "skipped"])
    .orderBy("service_date")
    .orderBy("id")
    .limit(limit)
    .execute();
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
