/** Client-safe account lists; their one home (see visits/visit-constants.ts for the rule). */
export const ROLES = ["admin"] as const;
export type Role = (typeof ROLES)[number];

export const OAUTH_PROVIDERS = ["google", "facebook"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** How each provider is named to people. */
export const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: "Google", facebook: "Facebook" };

export const isOAuthProvider = (value: string | undefined): value is OAuthProvider =>
  OAUTH_PROVIDERS.some((p) => p === value);
