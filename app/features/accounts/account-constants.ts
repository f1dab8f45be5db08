/** Client-safe account words; the value lists live in db/enums.ts (docs/decisions/016). */
import { OAUTH_PROVIDERS, type OAuthProvider } from "../../../db/enums";

export { OAUTH_PROVIDERS, ROLES, TOKEN_PURPOSES } from "../../../db/enums";
export type { OAuthProvider, Role, TokenPurpose } from "../../../db/enums";

/** How each provider is named to people. */
export const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: "Google", facebook: "Facebook" };

export const isOAuthProvider = (value: string | undefined): value is OAuthProvider =>
  OAUTH_PROVIDERS.some((p) => p === value);

/** The password rule of sign-up and reset. */
export const MIN_PASSWORD_LENGTH = 6;

// The password-reset texts (SPEC); client-safe, the pages render them.
export const RESET_REQUESTED_MESSAGE =
  "If an account exists for that address, we've sent a link to reset the password.";
export const RESET_LINK_EXPIRED_MESSAGE = "This link has expired. Request a new one.";

/** The e-mail verification link's text when it is spent or too old (its page and its toast). */
export const VERIFY_LINK_EXPIRED_MESSAGE =
  "This verification link has expired or was already used. Request a new one from your dashboard.";
