import { sql, type Kysely } from "kysely";

// This migration's own copy of the visit event kinds (frozen; db/enums.ts holds the live list):
// every kind before it (migration 0018's list), plus "assigned".
const VISIT_EVENT_KINDS = [
  "status",
  "rescheduled",
  "return_visit",
  "notes",
  "health_notes",
  "media_deleted",
  "email_skipped",
  "left_plan",
  "on_my_way",
  "assigned",
];
const PREVIOUS_KINDS = VISIT_EVENT_KINDS.filter((kind) => kind !== "assigned");

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

async function replaceCheck(db: Kysely<any>, values: readonly string[]) {
  await sql`alter table service_events drop constraint if exists service_events_kind_check`.execute(db);
  await sql`alter table service_events add constraint service_events_kind_check check (${oneOf("kind", values)})`.execute(
    db,
  );
}

/**
 * Issue 36, items 1 and 4 (docs/decisions/128): a change of who works a visit goes into its
 * History, and every press of "Show gate code" is kept (who, when, which visit). The log row
 * outlives the visit (a deleted visit leaves its views, visit_id null) and names the customer
 * itself, so the customer's page reads it by one index.
 */
export async function up(db: Kysely<any>) {
  await replaceCheck(db, VISIT_EVENT_KINDS);
  await sql`create table gate_code_views (
    id uuid primary key default gen_random_uuid(),
    customer_id uuid not null references users(id) on delete cascade,
    visit_id uuid references services(id) on delete set null,
    viewer_id uuid references users(id) on delete set null,
    viewed_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index gate_code_views_customer_id_viewed_at_idx on gate_code_views (customer_id, viewed_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>) {
  await sql`drop table if exists gate_code_views`.execute(db);
  await sql`delete from service_events where kind = 'assigned'`.execute(db);
  await replaceCheck(db, PREVIOUS_KINDS);
}
