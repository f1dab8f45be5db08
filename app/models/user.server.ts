import { getDb } from "~/utils/db.server";

export type SessionUser = {
  id: string;
  email: string;
  fullName: string | null;
  isAdmin: boolean;
};

/** The user with their profile name and whether they hold the admin role. */
export async function getSessionUserById(id: string): Promise<SessionUser | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select((eb) => [
      "users.id",
      "users.email",
      "profiles.full_name",
      eb
        .exists(
          eb
            .selectFrom("user_roles")
            .select("user_roles.role")
            .whereRef("user_roles.user_id", "=", "users.id")
            .where("user_roles.role", "=", "admin"),
        )
        .as("is_admin"),
    ])
    .where("users.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return { id: row.id, email: row.email, fullName: row.full_name, isAdmin: Boolean(row.is_admin) };
}
