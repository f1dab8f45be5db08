import { sql, type Kysely } from "kysely";

/**
 * A plan's visits in time order (docs/decisions/095): "Your Plan", the dashboard's plan card and
 * the admin's Plan section list the plan's next visits (`plan_id = $1 and service_date >= now()
 * order by service_date, id limit n`). The unique index (plan_id, plan_slot) finds a plan's
 * visits but not in time order, so every read fetched all of them, a list that grows by 52 to
 * 156 a year for as long as the plan lasts; this one walks from now to the n-th. Partial, as the
 * unique key: visits not made from a plan are not in it.
 */
export async function up(db: Kysely<any>) {
  await sql`create index services_plan_id_service_date_idx on services (plan_id, service_date, id)
    where plan_id is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index if exists services_plan_id_service_date_idx`.execute(db);
}
