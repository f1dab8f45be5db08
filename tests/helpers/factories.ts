import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { hashPassword } from "~/features/accounts/password.server";
import { createUserSessionHeaders } from "~/utils/session.server";

export type TestUser = { id: string; email: string; password: string; fullName: string };

/** A user with a profile (and the admin role when asked); the password is known to the test. */
export async function createUser(
  db: Kysely<Database>,
  options: { email?: string; password?: string; fullName?: string; admin?: boolean } = {},
): Promise<TestUser> {
  const email = options.email ?? `user-${randomBytes(4).toString("hex")}@example.com`;
  const password = options.password ?? "correct horse battery";
  const fullName = options.fullName ?? "Test Person";
  const user = await db
    .insertInto("users")
    .values({ email, password_hash: await hashPassword(password) })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.insertInto("profiles").values({ user_id: user.id, full_name: fullName }).execute();
  if (options.admin) await db.insertInto("user_roles").values({ user_id: user.id, role: "admin" }).execute();
  return { id: user.id, email, password, fullName };
}

/** The Cookie header of a fresh signed-in session for the user. */
export async function sessionCookieFor(userId: string): Promise<string> {
  const headers = await createUserSessionHeaders(new Request("http://localhost/"), userId);
  const setCookie = headers.get("Set-Cookie") ?? "";
  return setCookie.split(";")[0];
}
