import type { Updateable } from "kysely";
import type {
  CustomerPlan,
  CustomerPlanEvent,
  CustomerPlansTable,
  NewCustomerPlan,
  PlanEventKind,
} from "../../db/schema";
import { getDb, type Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

/** Table access for customer plans and their history (docs/decisions/090). */
export type { CustomerPlan, CustomerPlanEvent };

/** The customer's plan that is not cancelled (at most one: a partial unique index), if any. */
export async function findOpenPlanForCustomer(customerId: string, db?: Db): Promise<CustomerPlan | null> {
  if (!isUuid(customerId)) return null;
  const handle = db ?? (await getDb());
  return (
    (await handle
      .selectFrom("customer_plans")
      .selectAll()
      .where("customer_id", "=", customerId)
      .where("status", "<>", "cancelled")
      .executeTakeFirst()) ?? null
  );
}

/** The customer's latest plan, cancelled or not (a cancelled plan still shows its last visit). */
export async function findLatestPlanForCustomer(customerId: string, db?: Db): Promise<CustomerPlan | null> {
  if (!isUuid(customerId)) return null;
  const handle = db ?? (await getDb());
  return (
    (await handle
      .selectFrom("customer_plans")
      .selectAll()
      .where("customer_id", "=", customerId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

/** The plans that are not cancelled of these customers (one at most each): a page of the Customers list. */
export async function listOpenPlansForCustomers(customerIds: readonly string[], db?: Db) {
  const ids = customerIds.filter(isUuid);
  if (ids.length === 0) return [];
  const handle = db ?? (await getDb());
  return handle
    .selectFrom("customer_plans")
    .select(["customer_id", "catalogue_plan_name", "weekdays", "status"])
    .where("customer_id", "in", ids)
    .where("status", "<>", "cancelled")
    .execute();
}

export async function findPlanById(planId: string, db?: Db): Promise<CustomerPlan | null> {
  if (!isUuid(planId)) return null;
  const handle = db ?? (await getDb());
  return (await handle.selectFrom("customer_plans").selectAll().where("id", "=", planId).executeTakeFirst()) ?? null;
}

/** Locks the plan's row for the rest of the transaction (one change at a time per plan). */
export async function lockPlan(db: Db, planId: string): Promise<CustomerPlan | null> {
  if (!isUuid(planId)) return null;
  return (
    (await db.selectFrom("customer_plans").selectAll().where("id", "=", planId).forUpdate().executeTakeFirst()) ?? null
  );
}

export async function insertPlan(db: Db, values: NewCustomerPlan): Promise<CustomerPlan> {
  return db.insertInto("customer_plans").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updatePlan(
  db: Db,
  planId: string,
  patch: Omit<Updateable<CustomerPlansTable>, "id" | "customer_id" | "created_at">,
): Promise<CustomerPlan> {
  return db
    .updateTable("customer_plans")
    .set({ ...patch, updated_at: new Date() })
    .where("id", "=", planId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertPlanEvent(
  db: Db,
  event: { planId: string; actorId: string | null; kind: PlanEventKind; detail?: string | null },
): Promise<void> {
  await db
    .insertInto("customer_plan_events")
    .values({ plan_id: event.planId, actor_id: event.actorId, kind: event.kind, detail: event.detail ?? null })
    .execute();
}

/** The plan's history, newest first, with who made each change (their name, or their e-mail). */
export async function listPlanEvents(planId: string, limit = 50, db?: Db) {
  if (!isUuid(planId)) return [];
  const handle = db ?? (await getDb());
  return handle
    .selectFrom("customer_plan_events as e")
    .leftJoin("users as u", "u.id", "e.actor_id")
    .leftJoin("profiles as p", "p.user_id", "e.actor_id")
    .select([
      "e.id",
      "e.kind",
      "e.detail",
      "e.created_at",
      "e.actor_id",
      "p.full_name as actor_name",
      "u.email as actor_email",
    ])
    .where("e.plan_id", "=", planId)
    .orderBy("e.created_at", "desc")
    .orderBy("e.id", "desc")
    .limit(limit)
    .execute();
}
