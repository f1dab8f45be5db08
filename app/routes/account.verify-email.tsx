import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/features/accounts/auth.server";
import { countResendAttempt, tooManyAttemptsMessage } from "~/features/accounts/auth-limits.server";
import { sendVerificationEmail } from "~/features/accounts/email-verification.server";
import { getClientKey } from "~/utils/client-ip.server";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";

const BACK = "/customer-dashboard";

/** "Resend verification e-mail" on the dashboard: a fresh link, limited per account and per client. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  if (user.emailVerified) {
    return redirectWithSuccess(BACK, { message: "Already verified", description: "Your e-mail address is verified." });
  }
  const limit = await countResendAttempt(user.id, getClientKey(request, context));
  if (!limit.allowed) {
    return redirectWithError(BACK, {
      message: "Not sent",
      description: tooManyAttemptsMessage(limit.retryAfterSeconds),
    });
  }
  await sendVerificationEmail(user.id);
  return redirectWithSuccess(BACK, {
    message: "Verification e-mail sent",
    description: `We sent a new link to ${user.email}. It works for 24 hours.`,
  });
}

export async function loader() {
  return redirect(BACK);
}
