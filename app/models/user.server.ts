import { getDb, type Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";
import type { Role } from "../../db/enums";
import { isNotStaff, staffRoleOf } from "./user-roles.server";

export type SessionUser = {
  id: string;
  email: string;
  fullName: string | null;
  /** owner, office or technician (decision 123); null for a customer. */
  staffRole: Role | null;
  /** Holds a staff role (whatever it allows: capabilities are app/features/staff's). */
  isStaff: boolean;
  /** Deactivated by the owner (decision 123): such an account is treated as signed out. */
  deactivated: boolean;
  /** The address was proved (a link, a reset, or Google/Facebook). */
  emailVerified: boolean;
  /** Two-step sign-in (TOTP) is on. Staff must have it to open staff pages. */
  twoStepEnabled: boolean;
  /** When two-step was turned on (null while off): a second step passed before it is worth nothing. */
  twoStepEnabledAt: Date | null;
};

/** The user with their profile name and their staff role, if any. */
export async function getSessionUserById(id: string): Promise<SessionUser | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select((eb) => [
      "users.id",
      "users.email",
      "profiles.full_name",
      staffRoleOf(eb).as("staff_role"),
      "users.deactivated_at",
      "users.email_verified_at",
      eb
        .selectFrom("user_totp")
        .select("user_totp.enabled_at")
        .whereRef("user_totp.user_id", "=", "users.id")
        .as("two_step_enabled_at"),
    ])
    .where("users.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    staffRole: row.staff_role ?? null,
    isStaff: row.staff_role != null,
    deactivated: row.deactivated_at !== null,
    emailVerified: row.email_verified_at !== null,
    twoStepEnabled: row.two_step_enabled_at != null,
    twoStepEnabledAt: row.two_step_enabled_at != null ? new Date(row.two_step_enabled_at) : null,
  };
}

/** Whether the id names a customer (a user without a staff role). */
export async function isCustomer(userId: string, handle?: Db): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const db = handle ?? (await getDb());
  const row = await db
    .selectFrom("users")
    .select("users.id")
    .where("users.id", "=", userId)
    .where(isNotStaff)
    .executeTakeFirst();
  return Boolean(row);
}
