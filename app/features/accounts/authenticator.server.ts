import { Authenticator, AuthorizationError } from "remix-auth";
import { FacebookStrategy } from "remix-auth-facebook";
import { FormStrategy } from "remix-auth-form";
import { GoogleStrategy } from "remix-auth-google";
import { PROVIDER_NAMES, type OAuthProvider } from "./account-constants";
import { AccountError, findOrCreateOAuthUser, verifyCredentials, type OAuthIdentity } from "./accounts.server";
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

export const INVALID_CREDENTIALS = "Invalid email or password.";

async function verifyForm({ form }: { form: FormData }) {
  const email = form.get("email");
  const password = form.get("password");
  if (typeof email !== "string" || typeof password !== "string") throw new AccountError(INVALID_CREDENTIALS);
  const userId = await verifyCredentials(email, password);
  if (!userId) throw new AccountError(INVALID_CREDENTIALS);
  return userId;
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

export type OAuthEndpoints = { authorizationURL: string; tokenURL: string; userInfoURL: string };
let endpointOverrides: Partial<Record<OAuthProvider, OAuthEndpoints>> = {};

function callbackURL(provider: OAuthProvider) {
  return new URL(`/auth/${provider}/callback`, getEnv().SITE_URL).toString();
}

// The strategies hard-code Google's and Facebook's URLs (some as TypeScript-private fields);
// tests point them at a local OAuth2 server by replacing them on the instance.
function withEndpoints<T extends object>(strategy: T, endpoints: OAuthEndpoints | undefined): T {
  return endpoints ? Object.assign(strategy, endpoints) : strategy;
}

function createAuthenticator() {
  const env = getEnv();
  // The user id sits under the session module's key, so requireUser reads what this writes.
  const authenticator = new Authenticator<string>(getSessionStorage(), { sessionKey: USER_ID_KEY, throwOnError: true });
  authenticator.use(new FormStrategy(verifyForm), "form");

  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    const google = new GoogleStrategy(
      { clientID: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, callbackURL: callbackURL("google") },
      ({ profile }) =>
        verifyOAuth({
          provider: "google",
          providerUserId: profile.id,
          email: profile._json.email ?? null,
          // Only an address Google has verified may be matched to an existing account.
          emailVerified: profile._json.email_verified === true,
          fullName: profile.displayName ?? null,
        }),
    );
    authenticator.use(withEndpoints(google, endpointOverrides.google), "google");
  }
  if (env.FACEBOOK_CLIENT_ID && env.FACEBOOK_CLIENT_SECRET) {
    const facebook = new FacebookStrategy(
      {
        clientID: env.FACEBOOK_CLIENT_ID,
        clientSecret: env.FACEBOOK_CLIENT_SECRET,
        callbackURL: callbackURL("facebook"),
      },
      ({ profile }) =>
        verifyOAuth({
          provider: "facebook",
          providerUserId: profile.id,
          email: profile._json.email ?? null,
          // The Graph API returns an address only once its owner has confirmed it.
          emailVerified: Boolean(profile._json.email),
          fullName: profile.displayName ?? null,
        }),
    );
    authenticator.use(withEndpoints(facebook, endpointOverrides.facebook), "facebook");
  }
  return authenticator;
}

let authenticator: Authenticator<string> | undefined;

/** The app's remix-auth Authenticator: "form" always, "google"/"facebook" when configured. */
export function getAuthenticator() {
  authenticator ??= createAuthenticator();
  return authenticator;
}

/** Tests: rebuild from the current environment, with providers pointed at a local server. */
export function resetAuthenticatorForTests(endpoints: Partial<Record<OAuthProvider, OAuthEndpoints>> = {}) {
  endpointOverrides = endpoints;
  authenticator = undefined;
}

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
