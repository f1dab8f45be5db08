import { sql } from "kysely";
import type { OAuthProvider } from "../../db/schema";
import { hasStaffRole } from "./user-roles.server";
import { getDb, type Db } from "~/utils/db.server";

/** E-mail addresses are stored as typed (trimmed) and compared case-insensitively. */
export function normalizeEmail(email: string) {
  return email.trim();
}

const byEmail = (email: string) => sql<boolean>`lower(email) = lower(${normalizeEmail(email)})`;

/** The user with this address (any case) and their password hash, which is null for OAuth-only users. */
export async function findUserCredentials(email: string) {
  const db = await getDb();
  return db.selectFrom("users").select(["id", "password_hash"]).where(byEmail(email)).executeTakeFirst();
}

/** Inserts a user and their profile in one transaction; null when the address (any case) is taken. */
export async function insertUserWithProfile(input: {
  email: string;
  passwordHash: string | null;
  fullName: string;
}): Promise<string | null> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto("users")
      .values({ email: normalizeEmail(input.email), password_hash: input.passwordHash })
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!user) return null;
    await trx.insertInto("profiles").values({ user_id: user.id, full_name: input.fullName }).execute();
    return user.id;
  });
}

/** The user already linked to a Google/Facebook identity, if any. */
export async function findOAuthUserId(provider: OAuthProvider, providerUserId: string) {
  const db = await getDb();
  const linked = await db
    .selectFrom("oauth_accounts")
    .select("user_id")
    .where("provider", "=", provider)
    .where("provider_user_id", "=", providerUserId)
    .executeTakeFirst();
  return linked?.user_id ?? null;
}

/**
 * Links an identity to the user with `email` (any case), or to a new user with a profile named
 * `fullName`, in one transaction. The provider has verified the address: an existing account
 * whose address was never verified loses its password, sessions and second step first.
 */
export async function linkOAuthIdentity(input: {
  provider: OAuthProvider;
  providerUserId: string;
  email: string;
  fullName: string;
}): Promise<{ userId: string; created: boolean; takenOver?: boolean }> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const link = (userId: string) =>
      trx
        .insertInto("oauth_accounts")
        .values({ provider: input.provider, provider_user_id: input.providerUserId, user_id: userId })
        .onConflict((oc) => oc.columns(["provider", "provider_user_id"]).doNothing())
        .execute();

    const existing = await trx
      .selectFrom("users")
      .select(["id", "email_verified_at"])
      .where(byEmail(input.email))
      .forUpdate()
      .executeTakeFirst();
    if (existing) {
      if (!existing.email_verified_at) {
        // Nobody proved this address before the provider did: whoever set the password (and
        // any second step) may be an impostor who signed up first. They are out; the owner is in.
        await trx
          .updateTable("users")
          .set({ password_hash: null, email_verified_at: sql<Date>`now()` })
          .where("id", "=", existing.id)
          .execute();
        for (const table of [
          "sessions",
          "sign_in_challenges",
          "user_totp",
          "recovery_codes",
          "account_tokens",
        ] as const) {
          await trx.deleteFrom(table).where("user_id", "=", existing.id).execute();
        }
      }
      await link(existing.id);
      return { userId: existing.id, created: false, takenOver: !existing.email_verified_at };
    }
    const user = await trx
      .insertInto("users")
      .values({ email: normalizeEmail(input.email), password_hash: null, email_verified_at: sql<Date>`now()` })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.insertInto("profiles").values({ user_id: user.id, full_name: input.fullName }).execute();
    await link(user.id);
    return { userId: user.id, created: true };
  });
}

/** The account's address, name and whether it is verified. */
export async function findAccountById(userId: string) {
  const db = await getDb();
  return db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.id", "users.email", "users.email_verified_at", "users.password_hash", "profiles.full_name"])
    .where("users.id", "=", userId)
    .executeTakeFirst();
}

export async function markEmailVerified(userId: string) {
  const db = await getDb();
  await db
    .updateTable("users")
    .set({ email_verified_at: sql<Date>`coalesce(email_verified_at, now())` })
    .where("id", "=", userId)
    .execute();
}

/**
 * A password reset: the new hash, the address proved (the link reached its inbox), and every
 * session and pending second step of the account ended, in one transaction.
 */
export async function replacePasswordAndEndSessions(userId: string, passwordHash: string) {
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, email_verified_at: sql<Date>`coalesce(email_verified_at, now())` })
      .where("id", "=", userId)
      .execute();
    await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
    await trx.deleteFrom("sign_in_challenges").where("user_id", "=", userId).execute();
    await trx
      .updateTable("account_tokens")
      .set({ used_at: sql<Date>`now()` })
      .where("user_id", "=", userId)
      // Any password change spends the account's other password links (reset, and set from an invite).
      .where("purpose", "in", ["reset-password", "set-password"])
      .where("used_at", "is", null)
      .execute();
  });
}

/** Ends every session of the account but `keepSessionId` (null: every one). */
export async function deleteSessionsOfUser(userId: string, keepSessionId: string | null = null) {
  const db = await getDb();
  let query = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (keepSessionId) query = query.where("id", "!=", keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The account with this address (any case), locked in the caller's transaction, and whether it
 * is a staff member's: what a quote's conversion checks before it adds a plan to it.
 */
export async function lockAccountByEmail(db: Db, email: string) {
  return db
    .selectFrom("users")
    .select((eb) => ["users.id", hasStaffRole(eb).as("is_staff")])
    .where(byEmail(email))
    .forUpdate()
    .executeTakeFirst();
}

/**
 * A customer account made for someone else (from a quote request): no password and the address
 * not yet proved; the "Set your password" link does both. Null when the address (any case) is
 * taken, in the caller's transaction.
 */
export async function insertAccountWithoutPassword(
  db: Db,
  input: { email: string; fullName: string },
): Promise<string | null> {
  return insertAccount(db, { ...input, passwordHash: null });
}

/** A user and their profile in the caller's transaction; null when the address (any case) is taken. */
export async function insertAccount(
  db: Db,
  input: { email: string; fullName: string; passwordHash: string | null },
): Promise<string | null> {
  const user = await db
    .insertInto("users")
    .values({ email: normalizeEmail(input.email), password_hash: input.passwordHash })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!user) return null;
  await db.insertInto("profiles").values({ user_id: user.id, full_name: input.fullName }).execute();
  return user.id;
}
