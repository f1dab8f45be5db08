import type { OAuthProvider } from "../../../db/schema";
import { PROVIDER_NAMES } from "./account-constants";
import { describeAuthFailure } from "./authenticator.server";
import { errorFields, log } from "~/utils/logger.server";
import { redirectWithError } from "~/utils/toast.server";

/** Back to /auth with the spec's "Google sign in failed" / "Facebook sign in failed" toast. */
export function oauthFailure(provider: OAuthProvider, error: unknown, reason?: string) {
  const description = reason ?? describeAuthFailure(error, provider);
  // A provider's error body can be long; its first part is enough to diagnose.
  const detail = error ? errorFields(error).error.slice(0, 300) : undefined;
  log.warn("auth.oauth.failed", { provider, reason: description, error: detail });
  return redirectWithError("/auth", { message: `${PROVIDER_NAMES[provider]} sign in failed`, description });
}

/** The text for an `error` the provider put on the callback URL (never its free-text description). */
export function providerRedirectError(provider: OAuthProvider, code: string | null) {
  const name = PROVIDER_NAMES[provider];
  if (code === "access_denied") return `Sign-in was cancelled at ${name}. Please try again or use e-mail.`;
  return `${name} refused the sign-in (${code ?? "unknown error"}). Please try again or use e-mail.`;
}
