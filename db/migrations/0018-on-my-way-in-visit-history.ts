import { sql, type Kysely } from "kysely";

// This migration's own copy of the visit event kinds (frozen; db/enums.ts holds the live list):
// every kind before it (migration 0008's list), plus "On my way".
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
];
const PREVIOUS_KINDS = VISIT_EVENT_KINDS.filter((kind) => kind !== "on_my_way");

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

async function replaceCheck(db: Kysely<any>, values: readonly string[]) {
  await sql`alter table service_events drop constraint if exists service_events_kind_check`.execute(db);
  await sql`alter table service_events add constraint service_events_kind_check check (${oneOf("kind", values)})`.execute(
    db,
  );
}

/**
 * "On my way" in the visit's history (docs/decisions/097): the press was kept only as
 * services.on_my_way_at, so the History list, which says who did what and when, left it out.
 */
export async function up(db: Kysely<any>) {
  await replaceCheck(db, VISIT_EVENT_KINDS);
}

export async function down(db: Kysely<any>) {
  await sql`delete from service_events where kind = 'on_my_way'`.execute(db);
  await replaceCheck(db, PREVIOUS_KINDS);
}
