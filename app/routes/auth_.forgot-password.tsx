import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BrowserScript } from "~/components/browser-script";
import { submitClass } from "~/features/accounts/auth-fields";
import { Field } from "~/components/forms";
import { linkClass } from "~/components/ui-classes";
import { AccountPage } from "~/features/accounts/account-form";
import { ForgotPasswordSchema } from "~/features/accounts/auth-schemas";
import { countResetRequest, mayMailResetLink, tooManyAttemptsMessage } from "~/features/accounts/auth-limits.server";
import { requestPasswordReset } from "~/features/accounts/password-reset.server";
import { RESET_REQUESTED_MESSAGE } from "~/features/accounts/account-constants";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { getClientKey } from "~/utils/client-ip.server";
import { readFormData } from "~/utils/form-data.server";
import { log } from "~/utils/logger.server";
import { STATIC_PAGE } from "~/utils/static-page";

// No React in the browser (decisions 066, 068): the form posts as a document and
// auth-forms.browser.ts checks the address as it is typed.
export const handle = STATIC_PAGE;

export async function loader() {
  return json({ script: browserScriptUrl("auth-forms") });
}

// A refusal is Conform's `submission.reply()`: the messages by field and the value sent.
type ActionData = { sent: true } | { sent: false; result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: ForgotPasswordSchema });
  if (submission.status !== "success") {
    return json<ActionData>({ sent: false, result: submission.reply() }, 400);
  }
  const limit = await countResetRequest(getClientKey(request, context));
  if (!limit.allowed) {
    return json<ActionData>(
      {
        sent: false,
        result: submission.reply({ fieldErrors: { email: [tooManyAttemptsMessage(limit.retryAfterSeconds)] } }),
      },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  // The same answer, and the same work up to the mail, whether or not the address has an account.
  if (await mayMailResetLink(submission.value.email)) await requestPasswordReset(submission.value.email);
  else log.warn("auth.reset.mail_limited", {});
  return json<ActionData>({ sent: true });
}

export default function ForgotPasswordPage() {
  const { script } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <AccountPage title="Reset your password">
      {data?.sent ? (
        <p role="status" className="text-slate-800 dark:text-slate-200">
          {RESET_REQUESTED_MESSAGE}
        </p>
      ) : (
        <form id="forgot-password" method="post" className="grid gap-4">
          <p className="text-slate-800 dark:text-slate-200">
            Enter the e-mail address of your account and we will send you a link to choose a new password.
          </p>
          <Field
            label="Email"
            inputProps={{
              id: "email",
              name: "email",
              type: "email",
              required: true,
              autoComplete: "email",
              maxLength: 320,
            }}
            errors={data?.sent === false ? data.result.error?.email : undefined}
          />
          <button type="submit" className={submitClass}>
            Send reset link
          </button>
        </form>
      )}
      <p className="mt-6 text-sm">
        <a href="/auth" className={linkClass}>
          Back to Sign In
        </a>
      </p>
      {data?.sent ? null : <BrowserScript src={script} />}
    </AccountPage>
  );
}

export const meta: MetaFunction = () => [{ title: "Reset your password" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
