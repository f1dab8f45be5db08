import { sql } from "kysely";
import type { CustomerPlan } from "../../db/schema";
import type { Db } from "~/utils/db.server";

/** Table access for the prices locked on customer plans (docs/decisions/116). */

export type PlanPriceRow = Pick<
  CustomerPlan,
  | "id"
  | "customer_id"
  | "catalogue_plan_id"
  | "catalogue_plan_name"
  | "dog_count"
  | "price_cents"
  | "add_on_cents"
  | "pending_price_cents"
  | "pending_add_on_cents"
  | "pending_price_from"
>;

const PRICE_COLUMNS = [
  "id",
  "customer_id",
  "catalogue_plan_id",
  "catalogue_plan_name",
  "dog_count",
  "price_cents",
  "add_on_cents",
  "pending_price_cents",
  "pending_add_on_cents",
  "pending_price_from",
] as const;

/** One keyset batch of the plans that are billed (not cancelled), in id order, with their prices. */
export async function listPlanPricesBatch(db: Db, afterId: string | null, limit: number): Promise<PlanPriceRow[]> {
  let query = db
    .selectFrom("customer_plans")
    .select(PRICE_COLUMNS)
    .where("status", "<>", "cancelled")
    .orderBy("id")
    .limit(limit);
  if (afterId) query = query.where("id", ">", afterId);
  return query.execute();
}

/** The plan's prices read again under its row lock (the plan's changes take the same lock first). */
export async function lockPlanPrice(trx: Db, planId: string): Promise<PlanPriceRow | null> {
  return (
    (await trx
      .selectFrom("customer_plans")
      .select(PRICE_COLUMNS)
      .where("id", "=", planId)
      .where("status", "<>", "cancelled")
      .forUpdate()
      .executeTakeFirst()) ?? null
  );
}

export type PlanPricePatch = Partial<
  Pick<
    CustomerPlan,
    "price_cents" | "add_on_cents" | "pending_price_cents" | "pending_add_on_cents" | "pending_price_from"
  >
>;

export async function setPlanPrice(trx: Db, planId: string, patch: PlanPricePatch, now: Date): Promise<void> {
  await trx
    .updateTable("customer_plans")
    .set({ ...patch, updated_at: now })
    .where("id", "=", planId)
    .execute();
}

/**
 * The open plans whose catalogue plan is not among `catalogueIds` (deleted in the Studio, or no
 * longer billed monthly): at most `limit` of them with their customer, and how many there are.
 * The catalogue plans in use are read first, one index probe each (a loose index scan of
 * customer_plans_open_catalogue_idx, migration 0031), so that the usual answer, none, reads a
 * handful of index entries rather than every plan.
 */
export async function listPlansOutsideCatalogue(db: Db, catalogueIds: readonly string[], limit: number) {
  const { rows: used } = await sql<{ id: string }>`
    with recursive used(id) as (
      (select catalogue_plan_id from customer_plans where status <> 'cancelled'
        order by catalogue_plan_id limit 1)
      union all
      select (select p.catalogue_plan_id from customer_plans p
          where p.status <> 'cancelled' and p.catalogue_plan_id > used.id
          order by p.catalogue_plan_id limit 1)
        from used where used.id is not null
    )
    select id from used where id is not null`.execute(db);
  const known = new Set(catalogueIds);
  const gone = used.map((row) => row.id).filter((id) => !known.has(id));
  if (gone.length === 0) return { rows: [], count: 0 };
  const base = db
    .selectFrom("customer_plans as p")
    .where("p.status", "<>", "cancelled")
    .where("p.catalogue_plan_id", "in", gone);
  const [rows, count] = await Promise.all([
    base
      .innerJoin("users as u", "u.id", "p.customer_id")
      .leftJoin("profiles as pr", "pr.user_id", "p.customer_id")
      .select([
        "p.id",
        "p.customer_id",
        "p.catalogue_plan_name",
        "p.price_cents",
        "p.add_on_cents",
        "u.email",
        "pr.full_name",
      ])
      .orderBy("p.created_at")
      .orderBy("p.id")
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.n) };
}
