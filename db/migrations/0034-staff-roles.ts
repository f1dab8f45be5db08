import { sql, type Kysely } from "kysely";

// Frozen copy (db/constants-match-checks.test.ts compares it with db/enums.ts).
const ROLES = ["owner", "office", "technician"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Staff roles (docs/decisions/123): every admin becomes an owner, a staff member holds one role,
 * an account can be deactivated, and a visit can be assigned to the staff member who works it.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table user_roles drop constraint if exists user_roles_role_check`.execute(db);
  await sql`update user_roles set role = 'owner' where role = 'admin'`.execute(db);
  await sql`alter table user_roles add constraint user_roles_role_check check (${oneOf("role", ROLES)})`.execute(db);
  await sql`create unique index user_roles_one_role_idx on user_roles (user_id)`.execute(db);
  await sql`alter table users add column deactivated_at timestamptz`.execute(db);
  await sql`alter table services add column assigned_to uuid references users(id) on delete set null`.execute(db);
  await sql`create index services_assigned_to_service_date_idx on services (assigned_to, service_date)
    where assigned_to is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index if exists services_assigned_to_service_date_idx`.execute(db);
  await sql`alter table services drop column if exists assigned_to`.execute(db);
  await sql`alter table users drop column if exists deactivated_at`.execute(db);
  await sql`drop index if exists user_roles_one_role_idx`.execute(db);
  await sql`alter table user_roles drop constraint if exists user_roles_role_check`.execute(db);
  // Office and technician accounts had no place before: they become customers again.
  await sql`delete from user_roles where role <> 'owner'`.execute(db);
  await sql`update user_roles set role = 'admin'`.execute(db);
  await sql`alter table user_roles add constraint user_roles_role_check check (role in ('admin'))`.execute(db);
}
