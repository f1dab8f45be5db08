import { Authenticator, AuthorizationError } from "remix-auth";
import { PROVIDER_NAMES, type OAuthProvider } from "./account-constants";
import { AccountError, findOrCreateOAuthUser, type OAuthIdentity } from "./accounts.server";
import {
  FacebookStrategy,
  GoogleStrategy,
  PROVIDER_ENDPOINTS,
  type IdentityProfile,
  type OAuthEndpoints,
} from "./oauth-strategies.server";
import { INVALID_CREDENTIALS } from "./password-sign-in.server";
import { getEnv } from "~/utils/env.server";
import { log } from "~/utils/logger.server";
import { getSessionStorage, USER_ID_KEY } from "~/utils/session.server";

/** A provider is active when both its client id and secret are set. */
export function isProviderConfigured(provider: OAuthProvider) {
  const env = getEnv();
  return provider === "google"
    ? Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET)
    : Boolean(env.FACEBOOK_CLIENT_ID && env.FACEBOOK_CLIENT_SECRET);
}

async function verifyOAuth(identity: OAuthIdentity) {
  if (!identity.providerUserId) {
    throw new AccountError(
      `${PROVIDER_NAMES[identity.provider]} did not return your account details. Please try again.`,
    );
  }
  const { userId, created, takenOver } = await findOrCreateOAuthUser(identity);
  const event = created
    ? "auth.oauth.account_created"
    : takenOver
      ? "auth.oauth.unverified_account_claimed"
      : "auth.oauth.verified";
  log.info(event, { provider: identity.provider, userId });
  return userId;
}

function callbackURL(provider: OAuthProvider) {
  return new URL(`/auth/${provider}/callback`, getEnv().SITE_URL).toString();
}

const verifyProfile = ({ profile }: { profile: IdentityProfile }) => verifyOAuth(profile.identity);

/** The providers' URLs are an option: the tests pass a local OAuth2 server's. */
function createAuthenticator(endpoints: Record<OAuthProvider, OAuthEndpoints>) {
  const env = getEnv();
  // The user id sits under the session module's key, so requireUser reads what this writes.
  // Only Google and Facebook go through remix-auth; the password is checked by signInWithPassword.
  const authenticator = new Authenticator<string>(getSessionStorage(), { sessionKey: USER_ID_KEY, throwOnError: true });
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    const options = { clientID: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET };
    authenticator.use(
      new GoogleStrategy({ ...options, ...endpoints.google, callbackURL: callbackURL("google") }, verifyProfile),
      "google",
    );
  }
  if (env.FACEBOOK_CLIENT_ID && env.FACEBOOK_CLIENT_SECRET) {
    const options = { clientID: env.FACEBOOK_CLIENT_ID, clientSecret: env.FACEBOOK_CLIENT_SECRET };
    authenticator.use(
      new FacebookStrategy({ ...options, ...endpoints.facebook, callbackURL: callbackURL("facebook") }, verifyProfile),
      "facebook",
    );
  }
  return authenticator;
}

let endpoints = PROVIDER_ENDPOINTS;
let authenticator: Authenticator<string> | undefined;

/** The app's remix-auth Authenticator: "google"/"facebook" when configured. */
export function getAuthenticator() {
  authenticator ??= createAuthenticator(endpoints);
  return authenticator;
}

/** Tests: rebuild from the current environment, with the providers at these URLs. */
export function resetAuthenticatorForTests(overrides: Partial<Record<OAuthProvider, OAuthEndpoints>> = {}) {
  endpoints = { ...PROVIDER_ENDPOINTS, ...overrides };
  authenticator = undefined;
}

/** remix-auth's failure (a route must not import remix-auth: it would ship in the browser bundle). */
export const isAuthorizationError = (error: unknown): error is AuthorizationError =>
  error instanceof AuthorizationError;

const STATE_ERRORS = new Set(["Missing state on URL.", "Missing state on session.", "State doesn't match."]);

/** What to tell the person when a remix-auth strategy failed; never a raw provider response. */
export function describeAuthFailure(error: unknown, provider?: OAuthProvider): string {
  const name = provider ? PROVIDER_NAMES[provider] : "";
  if (error instanceof AuthorizationError || error instanceof AccountError) {
    if (error instanceof AccountError) return error.message;
    if (error.cause instanceof AccountError) return error.cause.message;
    if (STATE_ERRORS.has(error.message)) {
      return "The sign-in expired or was started in another browser. Please try again.";
    }
    if (error.message === "Missing code.") return `${name} did not complete the sign-in. Please try again.`;
    const code = providerErrorCode(error.message);
    if (code) return `${name} refused the sign-in (${code}). Please try again or use e-mail.`;
  }
  return provider ? `${name} sign-in did not work. Please try again or use e-mail.` : INVALID_CREDENTIALS;
}

/** The `error` code of an OAuth error body such as {"error":"invalid_grant"}, if it has one. */
export function providerErrorCode(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "error" in parsed) {
      const value = parsed.error;
      const code =
        typeof value === "string" ? value : value && typeof value === "object" && "type" in value ? value.type : null;
      return typeof code === "string" ? sanitizeCode(code) : null;
    }
  } catch {
    // Not JSON: not a provider's error body.
  }
  return null;
}

/** Error codes come from the URL or a provider: keep letters, digits and _ only, briefly. */
export function sanitizeCode(code: string) {
  const clean = code.replace(/[^A-Za-z0-9_]/g, "").slice(0, 40);
  return clean || null;
}
