import type { Updateable } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type {
  CustomerPlan,
  CustomerPlanEvent,
  CustomerPlansTable,
  NewCustomerPlan,
  PlanEventKind,
  SkipReason,
  VisitStatus,
  VisitType,
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

/** One of a plan's next visits, as the plan pages list them. */
export type ListedPlanVisit = {
  id: string;
  service_date: Date;
  service_type: VisitType;
  status: VisitStatus;
  skip_reason: SkipReason | null;
  plan_left_at: Date | null;
};

/** One line of a plan's history, with who made it (their name, or their e-mail). */
export type ListedPlanEvent = {
  id: string;
  kind: PlanEventKind;
  detail: string | null;
  created_at: Date;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
};

/**
 * The customer's latest plan (cancelled or not) with its next `visits` visits from `from`
 * (scheduled or skipped, soonest first) and, when `events` > 0, its latest history lines: one
 * round trip for what a plan page shows (decision 095), each list a correlated subquery on its
 * index (services_plan_id_service_date_idx, customer_plan_events_plan_id_created_at_idx).
 */
export async function findLatestPlanWithVisits(
  customerId: string,
  options: { from: Date; visits: number; events?: number },
  db?: Db,
): Promise<{ plan: CustomerPlan; upcoming: ListedPlanVisit[]; history: ListedPlanEvent[] } | null> {
  if (!isUuid(customerId)) return null;
  const handle = db ?? (await getDb());
  const events = options.events ?? 0;
  const row = await handle
    .selectFrom("customer_plans as cp")
    .selectAll("cp")
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom("services as s")
          .select(["s.id", "s.service_date", "s.service_type", "s.status", "s.skip_reason", "s.plan_left_at"])
          .whereRef("s.plan_id", "=", "cp.id")
          .where("s.service_date", ">=", options.from)
          .where("s.status", "in", ["scheduled", "skipped"])
          .orderBy("s.service_date")
          .orderBy("s.id")
          .limit(options.visits),
      ).as("upcoming"),
      jsonArrayFrom(
        eb
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
          .whereRef("e.plan_id", "=", "cp.id")
          .orderBy("e.created_at", "desc")
          .orderBy("e.id", "desc")
          .limit(events),
      ).as("history"),
    ])
    .where("cp.customer_id", "=", customerId)
    .orderBy("cp.created_at", "desc")
    .orderBy("cp.id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const { upcoming, history, ...plan } = row;
  // Inside JSON, timestamps arrive as ISO strings.
  return {
    plan,
    upcoming: upcoming.map((visit) => ({
      ...visit,
      service_date: new Date(visit.service_date),
      plan_left_at: visit.plan_left_at === null ? null : new Date(visit.plan_left_at),
    })),
    history: history.map((event) => ({ ...event, created_at: new Date(event.created_at) })),
  };
}
