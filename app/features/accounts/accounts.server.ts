import { PROVIDER_NAMES, type OAuthProvider } from "./account-constants";
import { getDummyHash, hashPassword, verifyPassword } from "./password.server";
import {
  findOAuthUserId,
  findUserCredentials,
  insertUserWithProfile,
  linkOAuthIdentity,
  normalizeEmail,
} from "~/models/account.server";

/** An error whose message is written for the person signing in and may be shown to them. */
export class AccountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AccountError";
  }
}

/**
 * The id of the user whose e-mail and password match, or null. An unknown address (or an
 * account that only signs in through Google/Facebook) still costs one scrypt comparison, so the
 * answer takes as long either way.
 */
export async function verifyCredentials(email: string, password: string): Promise<string | null> {
  const user = await findUserCredentials(email);
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
  const userId = await insertUserWithProfile({ email: input.email, passwordHash, fullName: input.fullName.trim() });
  return userId ? { ok: true, userId } : { ok: false, reason: "email-taken" };
}

export type OAuthIdentity = {
  provider: OAuthProvider;
  providerUserId: string;
  email: string | null;
  /** Only a verified address may be matched to (and so take over) an existing account. */
  emailVerified: boolean;
  fullName: string | null;
};

/**
 * The user behind a Google/Facebook identity: the one already linked to it, else the one whose
 * e-mail matches the provider's verified address (linked now), else a new user with a profile.
 */
export async function findOrCreateOAuthUser(
  identity: OAuthIdentity,
): Promise<{ userId: string; created: boolean; takenOver?: boolean }> {
  const providerName = PROVIDER_NAMES[identity.provider];
  const linked = await findOAuthUserId(identity.provider, identity.providerUserId);
  if (linked) return { userId: linked, created: false };

  const email = identity.email ? normalizeEmail(identity.email) : "";
  if (!email || !email.includes("@") || email.length > 320) {
    throw new AccountError(
      `Your ${providerName} account did not share an e-mail address. Please use e-mail to sign up.`,
    );
  }
  if (!identity.emailVerified) {
    throw new AccountError(`Your ${providerName} e-mail address is not verified. Please use e-mail to sign in.`);
  }
  const fullName = (identity.fullName?.trim() || email.split("@")[0]).slice(0, 200);
  return linkOAuthIdentity({ provider: identity.provider, providerUserId: identity.providerUserId, email, fullName });
}
