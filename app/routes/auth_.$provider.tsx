import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getOptionalUser, homeFor } from "~/features/accounts/auth.server";
import { isOAuthProvider, PROVIDER_NAMES } from "~/features/accounts/account-constants";
import { getAuthenticator, isProviderConfigured } from "~/features/accounts/authenticator.server";
import { oauthFailure } from "~/features/accounts/oauth-failure.server";
import { countOAuthStart, tooManyAttemptsMessage } from "~/features/accounts/auth-limits.server";
import { getClientKey } from "~/utils/client-ip.server";

// Only the buttons' POST starts a provider round trip; a GET (a typed URL) goes back to /auth.
export async function loader() {
  return redirect("/auth");
}

/**
 * POST /auth/google, /auth/facebook: remix-auth keeps a random state in a new (anonymous)
 * session row and answers with a redirect to the provider's consent page.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const provider = params.provider;
  if (!isOAuthProvider(provider)) throw new Response("Not found", { status: 404 });
  if (!isProviderConfigured(provider)) {
    return oauthFailure(provider, null, `${PROVIDER_NAMES[provider]} sign-in is not set up yet. Please use e-mail.`);
  }
  const user = await getOptionalUser(request, context);
  if (user) return redirect(homeFor(user));
  // Each start stores a session (the OAuth state): limited per client, refused before storing.
  const limit = await countOAuthStart(getClientKey(request, context));
  if (!limit.allowed) return oauthFailure(provider, null, tooManyAttemptsMessage(limit.retryAfterSeconds));
  try {
    await getAuthenticator().authenticate(provider, request);
  } catch (error) {
    if (error instanceof Response) return error;
    return oauthFailure(provider, error);
  }
  // Without a user in the session the strategy always redirects; reaching here is a bug.
  return oauthFailure(provider, new Error("The provider round trip did not start"));
}
