/** Client-safe account lists; their one home (see visits/visit-constants.ts for the rule). */
export const ROLES = ["admin"] as const;
export type Role = (typeof ROLES)[number];

export const OAUTH_PROVIDERS = ["google", "facebook"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** How each provider is named to people. */
export const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: "Google", facebook: "Facebook" };

export const isOAuthProvider = (value: string | undefined): value is OAuthProvider =>
  OAUTH_PROVIDERS.some((p) => p === value);

/** What a single-use e-mailed link is for (account_tokens.purpose). */
export const TOKEN_PURPOSES = ["verify-email", "reset-password"] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/** The password rule of sign-up and reset. */
export const MIN_PASSWORD_LENGTH = 6;

// The password-reset texts (SPEC); client-safe, the pages render them.
export const RESET_REQUESTED_MESSAGE =
  "If an account exists for that address, we've sent a link to reset the password.";
export const RESET_LINK_EXPIRED_MESSAGE = "This link has expired. Request a new one.";
