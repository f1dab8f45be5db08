import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { submitClass } from "~/features/accounts/auth-fields";
import { AccountPage, linkClass, PlainField } from "~/features/accounts/account-form";
import { countResetRequest, mayMailResetLink, tooManyAttemptsMessage } from "~/features/accounts/auth-limits.server";
import { requestPasswordReset } from "~/features/accounts/password-reset.server";
import { RESET_REQUESTED_MESSAGE } from "~/features/accounts/account-constants";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getClientIp } from "~/utils/client-ip.server";
import { readFormData } from "~/utils/form-data.server";
import { log } from "~/utils/logger.server";

const ForgotSchema = z.object({ email: z.string().trim().email("Enter a valid email address").max(320) });

type ActionData = { sent: true } | { sent: false; error: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = ForgotSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!parsed.success) {
    return json<ActionData>(
      { sent: false, error: parsed.error.issues[0]?.message ?? "Enter a valid email address" },
      400,
    );
  }
  const limit = await countResetRequest(getClientIp(request, context));
  if (!limit.allowed) {
    return json<ActionData>(
      { sent: false, error: tooManyAttemptsMessage(limit.retryAfterSeconds) },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  // The same answer, and the same work up to the mail, whether or not the address has an account.
  if (await mayMailResetLink(parsed.data.email)) await requestPasswordReset(parsed.data.email);
  else log.warn("auth.reset.mail_limited", {});
  return json<ActionData>({ sent: true });
}

export default function ForgotPasswordPage() {
  const data = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <AccountPage title="Reset your password">
      {data?.sent ? (
        <p role="status" className="text-slate-800 dark:text-slate-200">
          {RESET_REQUESTED_MESSAGE}
        </p>
      ) : (
        <Form method="post" className="grid gap-4">
          <p className="text-slate-800 dark:text-slate-200">
            Enter the e-mail address of your account and we will send you a link to choose a new password.
          </p>
          <PlainField
            id="email"
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            maxLength={320}
            error={data?.sent === false ? data.error : undefined}
          />
          <button type="submit" className={submitClass} disabled={busy}>
            Send reset link
          </button>
        </Form>
      )}
      <p className="mt-6 text-sm">
        <Link to="/auth" className={linkClass}>
          Back to Sign In
        </Link>
      </p>
    </AccountPage>
  );
}

export const meta: MetaFunction = () => [{ title: "Reset your password" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
