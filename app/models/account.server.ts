import { sql } from "kysely";
import type { OAuthProvider } from "../../db/schema";
import { getDb } from "~/utils/db.server";
import { getDummyHash, hashPassword, verifyPassword } from "~/features/accounts/password.server";

/** An error whose message is written for the person signing in and may be shown to them. */
export class AccountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AccountError";
  }
}

/** E-mail addresses are stored as typed (trimmed) and compared case-insensitively. */
export function normalizeEmail(email: string) {
  return email.trim();
}

const byEmail = (email: string) => sql<boolean>`lower(email) = lower(${normalizeEmail(email)})`;

/**
 * The id of the user whose e-mail and password match, or null. An unknown address (or an
 * account that only signs in through Google/Facebook) still costs one scrypt comparison, so the
 * answer takes as long either way.
 */
export async function verifyCredentials(email: string, password: string): Promise<string | null> {
  const db = await getDb();
  const user = await db.selectFrom("users").select(["id", "password_hash"]).where(byEmail(email)).executeTakeFirst();
  if (!user?.password_hash) {
    await verifyPassword(password, await getDummyHash());
    return null;
  }
  return (await verifyPassword(password, user.password_hash)) ? user.id : null;
}

export type CreateAccountResult = { ok: true; userId: string } | { ok: false; reason: "email-taken" };

/** Creates a user with a password and their profile; a taken address (any case) is refused. */
export async function createAccountWithPassword(input: {
  email: string;
  password: string;
  fullName: string;
}): Promise<CreateAccountResult> {
  // Hash first, so that a taken address answers no faster than a free one.
  const passwordHash = await hashPassword(input.password);
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto("users")
      .values({ email: normalizeEmail(input.email), password_hash: passwordHash })
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!user) return { ok: false, reason: "email-taken" } as const;
    await trx.insertInto("profiles").values({ user_id: user.id, full_name: input.fullName.trim() }).execute();
    return { ok: true, userId: user.id } as const;
  });
}

export type OAuthIdentity = {
  provider: OAuthProvider;
  providerUserId: string;
  email: string | null;
  /** Only a verified address may be matched to (and so take over) an existing account. */
  emailVerified: boolean;
  fullName: string | null;
};

const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: "Google", facebook: "Facebook" };

/**
 * The user behind a Google/Facebook identity: the one already linked to it, else the one whose
 * e-mail matches the provider's verified address (linked now), else a new user with a profile.
 */
export async function findOrCreateOAuthUser(identity: OAuthIdentity): Promise<{ userId: string; created: boolean }> {
  const providerName = PROVIDER_NAMES[identity.provider];
  const db = await getDb();
  const linked = await db
    .selectFrom("oauth_accounts")
    .select("user_id")
    .where("provider", "=", identity.provider)
    .where("provider_user_id", "=", identity.providerUserId)
    .executeTakeFirst();
  if (linked) return { userId: linked.user_id, created: false };

  const email = identity.email ? normalizeEmail(identity.email) : "";
  if (!email || !email.includes("@") || email.length > 320) {
    throw new AccountError(`Your ${providerName} account did not share an e-mail address. Please use e-mail to sign up.`);
  }
  if (!identity.emailVerified) {
    throw new AccountError(`Your ${providerName} e-mail address is not verified. Please use e-mail to sign in.`);
  }

  return db.transaction().execute(async (trx) => {
    const link = (userId: string) =>
      trx
        .insertInto("oauth_accounts")
        .values({ provider: identity.provider, provider_user_id: identity.providerUserId, user_id: userId })
        .onConflict((oc) => oc.columns(["provider", "provider_user_id"]).doNothing())
        .execute();

    const existing = await trx.selectFrom("users").select("id").where(byEmail(email)).executeTakeFirst();
    if (existing) {
      await link(existing.id);
      return { userId: existing.id, created: false };
    }
    const user = await trx
      .insertInto("users")
      .values({ email, password_hash: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    const fullName = (identity.fullName?.trim() || email.split("@")[0]).slice(0, 200);
    await trx.insertInto("profiles").values({ user_id: user.id, full_name: fullName }).execute();
    await link(user.id);
    return { userId: user.id, created: true };
  });
}
