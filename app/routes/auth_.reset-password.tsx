import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BrowserScript } from "~/components/browser-script";
import { submitClass } from "~/features/accounts/auth-fields";
import { Field } from "~/components/forms";
import { AccountPage } from "~/features/accounts/account-form";
import { ExpiredLinkPage } from "~/features/accounts/expired-link-page";
import { MIN_PASSWORD_LENGTH, RESET_LINK_EXPIRED_MESSAGE } from "~/features/accounts/account-constants";
import { ResetPasswordSchema } from "~/features/accounts/auth-schemas";
import { isResetTokenLive, resetPasswordWithToken } from "~/features/accounts/password-reset.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readFormData } from "~/utils/form-data.server";
import { log } from "~/utils/logger.server";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { STATIC_PAGE } from "~/utils/static-page";
import { TOKEN_PAGE_HEADERS } from "~/utils/token-page";
import { redirectWithSuccess } from "~/utils/toast.server";

// No React in the browser (decisions 066, 068): the form posts as a document and
// auth-forms.browser.ts checks the new password as it is typed.
export const handle = STATIC_PAGE;
export const headers = () => TOKEN_PAGE_HEADERS;

// The token stays in the URL only for the page; the form posts it in the body. A GET or HEAD
// (a mail scanner) only reads whether the link is live; the reset is the POST.
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const live = await isResetTokenLive(token);
  return json(
    { token: live ? token : null, script: live ? browserScriptUrl("auth-forms") : null },
    { status: live ? 200 : 410, headers: TOKEN_PAGE_HEADERS },
  );
}

// A refusal is Conform's `submission.reply()` (never with the password: `hideFields`).
type ResetData = { expired: boolean; result?: SubmissionResult<string[]> };

export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const token = String(form.get("token") ?? "");
  const submission = parseWithZod(form, { schema: ResetPasswordSchema });
  if (submission.status !== "success") {
    return json<ResetData>(
      { expired: false, result: submission.reply({ hideFields: ["password", "token"] }) },
      { status: 400 },
    );
  }
  if (!(await resetPasswordWithToken(token, submission.value.password))) {
    return json<ResetData>({ expired: true }, { status: 410 });
  }
  log.info("auth.password_reset", {});
  return redirectWithSuccess("/auth", {
    message: "Success",
    description: "Your password has been changed. You can now log in.",
  });
}

export default function ResetPasswordPage() {
  const { token, script } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  if (!token || data?.expired) {
    return (
      <ExpiredLinkPage
        title="Choose a new password"
        message={RESET_LINK_EXPIRED_MESSAGE}
        to="/auth/forgot-password"
        linkText="Request a new link"
      />
    );
  }
  return (
    <AccountPage title="Choose a new password">
      <form id="reset-password" method="post" className="grid gap-4">
        <input type="hidden" name="token" value={token} />
        <Field
          label="New password"
          inputProps={{
            id: "password",
            name: "password",
            type: "password",
            required: true,
            autoComplete: "new-password",
            minLength: MIN_PASSWORD_LENGTH,
            maxLength: 1024,
          }}
          description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          errors={data?.result?.error?.password}
        />
        <button type="submit" className={submitClass}>
          Change password
        </button>
      </form>
      <BrowserScript src={script} />
    </AccountPage>
  );
}

export const meta: MetaFunction = () => [{ title: "Choose a new password" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
