import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOptionalUser, homeFor } from "~/features/accounts/auth.server";
import { verifyEmailWithToken } from "~/features/accounts/email-verification.server";
import { log } from "~/utils/logger.server";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";

/** The link in the verification e-mail: proves the address and goes on to the portal (or Sign In). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const user = await getOptionalUser(request, context);
  const next = user ? homeFor(user) : "/auth";
  const userId = await verifyEmailWithToken(token);
  if (!userId) {
    return redirectWithError(next, {
      message: "Link expired",
      description: "This verification link has expired or was already used. Request a new one from your dashboard.",
    });
  }
  log.info("auth.email_verified", { userId });
  return redirectWithSuccess(next, { message: "Success", description: "Your e-mail address is verified." });
}
