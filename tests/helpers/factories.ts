import type { Role } from "../../db/enums";
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { DEV_ADMIN_TOTP_SECRET } from "../../db/dev-totp";
import type { Database } from "../../db/schema";
import { hashPassword } from "~/features/accounts/password.server";
import { createUserSessionHeaders } from "~/utils/session.server";

export type TestUser = {
  id: string;
  email: string;
  password: string;
  fullName: string;
  /** The TOTP secret when two-step is on (admins by default), for tests/helpers/totp.ts. */
  totpSecret: string | null;
};

/** The secret test admins get: the development admin's, so one helper computes every code. */
export const TEST_TOTP_SECRET = DEV_ADMIN_TOTP_SECRET;

/**
 * A user with a profile (and a staff role when asked: `admin: true` is an owner, as
 * `admin:grant` makes one; `role` any of decision 123's); the password is known to the test.
 * The address is verified unless `verified: false`. Staff have two-step on (as they must to
 * open staff pages) unless `twoStep: false`; anyone gets it with `twoStep: true`.
 */
export async function createUser(
  db: Kysely<Database>,
  options: {
    email?: string;
    password?: string;
    fullName?: string;
    admin?: boolean;
    role?: Role;
    verified?: boolean;
    twoStep?: boolean;
  } = {},
): Promise<TestUser> {
  const email = options.email ?? `user-${randomBytes(4).toString("hex")}@example.com`;
  const password = options.password ?? "correct horse battery";
  const fullName = options.fullName ?? "Test Person";
  const user = await db
    .insertInto("users")
    .values({
      email,
      password_hash: await hashPassword(password),
      email_verified_at: options.verified === false ? null : new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.insertInto("profiles").values({ user_id: user.id, full_name: fullName }).execute();
  const role = options.role ?? (options.admin ? "owner" : null);
  if (role) await db.insertInto("user_roles").values({ user_id: user.id, role }).execute();
  const twoStep = options.twoStep ?? Boolean(role);
  if (twoStep) {
    await db
      .insertInto("user_totp")
      .values({ user_id: user.id, secret: TEST_TOTP_SECRET, enabled_at: new Date() })
      .execute();
  }
  return { id: user.id, email, password, fullName, totpSecret: twoStep ? TEST_TOTP_SECRET : null };
}

/**
 * The Cookie header of a fresh signed-in session for the user, as a complete sign-in leaves it:
 * with its second step passed now (decision 024). `secondStep: false`: a session signed in
 * with the password alone (before two-step was on, say).
 */
export async function sessionCookieFor(userId: string, { secondStep = true } = {}): Promise<string> {
  const headers = await createUserSessionHeaders(new Request("http://localhost/"), userId, {
    secondStepAt: secondStep ? new Date() : undefined,
  });
  const setCookie = headers.get("Set-Cookie") ?? "";
  return setCookie.split(";")[0];
}
