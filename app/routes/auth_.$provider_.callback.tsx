import type { LoaderFunctionArgs } from "@remix-run/node";
import { getSessionUserById } from "~/models/user.server";
import { isOAuthProvider, PROVIDER_NAMES } from "~/features/accounts/account-constants";
import { getAuthenticator, isProviderConfigured, sanitizeCode } from "~/features/accounts/authenticator.server";
import { oauthFailure, providerRedirectError } from "~/features/accounts/oauth-failure.server";
import { finishFirstStep } from "~/features/accounts/sign-in.server";

/**
 * GET /auth/{provider}/callback?code&state: remix-auth checks the state against the session,
 * trades the code for a token, reads the profile, and the verify callback finds, links or
 * creates the user. The sign-in then starts under a brand-new session id, or goes on to the
 * second step when the account has two-step on.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const provider = params.provider;
  if (!isOAuthProvider(provider)) throw new Response("Not found", { status: 404 });
  if (!isProviderConfigured(provider)) {
    return oauthFailure(provider, null, `${PROVIDER_NAMES[provider]} sign-in is not set up yet. Please use e-mail.`);
  }
  // The person cancelled, or the provider refused: it says so in the URL, not with a code.
  const refused = new URL(request.url).searchParams.get("error");
  if (refused !== null) return oauthFailure(provider, null, providerRedirectError(provider, sanitizeCode(refused)));

  let userId: string;
  try {
    userId = await getAuthenticator().authenticate(provider, request);
  } catch (error) {
    if (error instanceof Response) return error;
    return oauthFailure(provider, error);
  }
  const user = await getSessionUserById(userId);
  if (!user) return oauthFailure(provider, new Error("The signed-in user does not exist"));
  return finishFirstStep(request, user, provider);
}
