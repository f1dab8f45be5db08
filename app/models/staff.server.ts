import { sql } from "kysely";
import type { Role } from "../../db/enums";
import { getDb, type Db } from "~/utils/db.server";

export type StaffMember = {
  id: string;
  email: string;
  fullName: string | null;
  role: Role;
  deactivatedAt: Date | null;
  twoStepOn: boolean;
};

/** Every staff account, owners first, then by name (the Staff page: a business has a few dozen). */
export async function listStaffMembers(db?: Db): Promise<StaffMember[]> {
  const handle = db ?? (await getDb());
  const rows = await handle
    .selectFrom("user_roles")
    .innerJoin("users", "users.id", "user_roles.user_id")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .leftJoin("user_totp", "user_totp.user_id", "users.id")
    .select([
      "users.id",
      "users.email",
      "profiles.full_name",
      "user_roles.role",
      "users.deactivated_at",
      "user_totp.enabled_at",
    ])
    .orderBy(sql`users.deactivated_at is not null`)
    .orderBy(sql`case user_roles.role when 'owner' then 0 when 'office' then 1 else 2 end`)
    .orderBy(sql`lower(coalesce(profiles.full_name, users.email))`)
    .limit(500)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    role: row.role,
    deactivatedAt: row.deactivated_at ? new Date(row.deactivated_at) : null,
    twoStepOn: row.enabled_at != null,
  }));
}

/** The active staff a visit can be assigned to (its page's select). */
export async function listAssignableStaff(): Promise<{ id: string; label: string }[]> {
  const members = await listStaffMembers();
  return members.filter((m) => !m.deactivatedAt).map((m) => ({ id: m.id, label: m.fullName ?? m.email }));
}

/** How the History names staff: their name, else their e-mail (deactivated ones too). */
export async function staffLabels(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.id", "users.email", "profiles.full_name"])
    .where("users.id", "in", userIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.full_name ?? row.email]));
}

/** Whether the id names an active staff account (what an assignment may point at). */
export async function isActiveStaff(userId: string): Promise<boolean> {
  const db = await getDb();
  const row = await db
    .selectFrom("user_roles")
    .innerJoin("users", "users.id", "user_roles.user_id")
    .select("users.id")
    .where("users.id", "=", userId)
    .where("users.deactivated_at", "is", null)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * The owner rows, locked in the caller's transaction: every change that could leave the business
 * without an active owner reads them this way first, so two such changes run one after the other.
 */
export async function lockActiveOwners(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("user_roles")
    .innerJoin("users", "users.id", "user_roles.user_id")
    .select("users.id")
    .where("user_roles.role", "=", "owner")
    .where("users.deactivated_at", "is", null)
    .orderBy("users.id")
    .forUpdate()
    .execute();
  return rows.map((row) => row.id);
}

/** The staff role of a user, locked in the caller's transaction (null: a customer, or no such user). */
export async function lockStaffRole(db: Db, userId: string) {
  return db
    .selectFrom("user_roles")
    .innerJoin("users", "users.id", "user_roles.user_id")
    .select(["user_roles.role", "users.deactivated_at"])
    .where("user_roles.user_id", "=", userId)
    .forUpdate()
    .executeTakeFirst();
}

export async function setStaffRole(db: Db, userId: string, role: Role) {
  await db
    .insertInto("user_roles")
    .values({ user_id: userId, role })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ role }))
    .execute();
}

/** Deactivates the account and ends every session of it, in the caller's transaction. */
export async function deactivateAccount(db: Db, userId: string) {
  await db
    .updateTable("users")
    .set({ deactivated_at: sql<Date>`now()` })
    .where("id", "=", userId)
    .execute();
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  await db.deleteFrom("sign_in_challenges").where("user_id", "=", userId).execute();
}

export async function reactivateAccount(db: Db, userId: string) {
  await db.updateTable("users").set({ deactivated_at: null }).where("id", "=", userId).execute();
}
