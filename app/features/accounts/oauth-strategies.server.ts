import type { StrategyVerifyCallback } from "remix-auth";
import { OAuth2Strategy, type OAuth2Profile, type OAuth2StrategyVerifyParams } from "remix-auth-oauth2";
import type { OAuthProvider } from "./account-constants";
import type { OAuthIdentity } from "./accounts.server";

// Google and Facebook as remix-auth-oauth2 strategies whose URLs are constructor options
// (issue 23): the tests and a self-hosted copy point them at another OAuth2 server by passing
// other URLs, never by patching a strategy's fields.

export type OAuthEndpoints = { authorizationURL: string; tokenURL: string; userInfoURL: string };

/** The providers' own URLs (those remix-auth-google 2.0.0 and remix-auth-facebook 1.0.1 used). */
export const PROVIDER_ENDPOINTS: Record<OAuthProvider, OAuthEndpoints> = {
  google: {
    authorizationURL: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenURL: "https://oauth2.googleapis.com/token",
    userInfoURL: "https://www.googleapis.com/oauth2/v3/userinfo",
  },
  facebook: {
    authorizationURL: "https://facebook.com/v14.0/dialog/oauth",
    tokenURL: "https://graph.facebook.com/v14.0/oauth/access_token",
    userInfoURL: "https://graph.facebook.com/me",
  },
};

/** What the app reads of a provider's profile, already in the accounts module's words. */
export type IdentityProfile = OAuth2Profile & { identity: OAuthIdentity };

export type ProviderStrategyOptions = OAuthEndpoints & { clientID: string; clientSecret: string; callbackURL: string };
type Verify = StrategyVerifyCallback<string, OAuth2StrategyVerifyParams<IdentityProfile>>;

const text = (value: unknown) => (typeof value === "string" && value ? value : null);

/** Reads a provider's user-info answer; anything unexpected reads as "no details". */
async function fetchUserInfo(url: string, accessToken: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${accessToken}` } });
  const body: unknown = response.ok ? await response.json().catch(() => null) : null;
  return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
}

function profileOf(provider: OAuthProvider, identity: Omit<OAuthIdentity, "provider">): IdentityProfile {
  return {
    provider,
    id: identity.providerUserId,
    displayName: identity.fullName ?? undefined,
    identity: { provider, ...identity },
  };
}

export class GoogleStrategy extends OAuth2Strategy<string, IdentityProfile> {
  name = "google";
  private readonly userInfoURL: string;

  constructor({ userInfoURL, ...options }: ProviderStrategyOptions, verify: Verify) {
    super({ ...options, scope: "openid profile email" }, verify);
    this.userInfoURL = userInfoURL;
  }

  protected authorizationParams() {
    return new URLSearchParams({ access_type: "online", include_granted_scopes: "false" });
  }

  protected async userProfile(accessToken: string): Promise<IdentityProfile> {
    // OpenID Connect's user info: sub, name, email, email_verified.
    const raw = await fetchUserInfo(this.userInfoURL, accessToken);
    return profileOf("google", {
      providerUserId: text(raw.sub) ?? "",
      email: text(raw.email),
      // Only an address Google has verified may be matched to an existing account.
      emailVerified: raw.email_verified === true,
      fullName: text(raw.name),
    });
  }
}

export class FacebookStrategy extends OAuth2Strategy<string, IdentityProfile> {
  name = "facebook";
  private readonly userInfoURL: string;

  constructor({ userInfoURL, ...options }: ProviderStrategyOptions, verify: Verify) {
    super({ ...options, scope: "public_profile,email" }, verify);
    this.userInfoURL = userInfoURL;
  }

  protected async userProfile(accessToken: string): Promise<IdentityProfile> {
    // The Graph API's /me with the fields asked for.
    const url = new URL(this.userInfoURL);
    url.searchParams.set("fields", "id,name,email");
    const raw = await fetchUserInfo(url.toString(), accessToken);
    const email = text(raw.email);
    return profileOf("facebook", {
      providerUserId: text(raw.id) ?? "",
      email,
      // The Graph API returns an address only once its owner has confirmed it.
      emailVerified: Boolean(email),
      fullName: text(raw.name),
    });
  }
}
