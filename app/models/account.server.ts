import { sql } from "kysely";
import type { OAuthProvider } from "../../db/schema";
import { getDb } from "~/utils/db.server";

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
 * `fullName`, in one transaction.
 */
export async function linkOAuthIdentity(input: {
  provider: OAuthProvider;
  providerUserId: string;
  email: string;
  fullName: string;
}): Promise<{ userId: string; created: boolean }> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const link = (userId: string) =>
      trx
        .insertInto("oauth_accounts")
        .values({ provider: input.provider, provider_user_id: input.providerUserId, user_id: userId })
        .onConflict((oc) => oc.columns(["provider", "provider_user_id"]).doNothing())
        .execute();

    const existing = await trx.selectFrom("users").select("id").where(byEmail(input.email)).executeTakeFirst();
    if (existing) {
      await link(existing.id);
      return { userId: existing.id, created: false };
    }
    const user = await trx
      .insertInto("users")
      .values({ email: normalizeEmail(input.email), password_hash: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.insertInto("profiles").values({ user_id: user.id, full_name: input.fullName }).execute();
    await link(user.id);
    return { userId: user.id, created: true };
  });
}
