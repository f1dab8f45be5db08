import { sql, type Kysely } from "kysely";

/**
 * The open plans by catalogue plan (docs/decisions/116): the Billing tab lists the plans whose
 * catalogue plan is gone from the Studio on every load, and at 100k plans a `not in` filter read
 * every plan to find none. With this index the page reads the few catalogue plans in use (one
 * probe each, a loose index scan) and then only the plans of those that are gone.
 */
export async function up(db: Kysely<any>) {
  await sql`create index customer_plans_open_catalogue_idx on customer_plans (catalogue_plan_id, created_at, id)
    where status <> 'cancelled'`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index if exists customer_plans_open_catalogue_idx`.execute(db);
}
