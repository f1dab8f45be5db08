import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BrowserScript } from "~/components/browser-script";
import { Field } from "~/components/forms";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { AccountPage } from "~/features/accounts/account-form";
import { MIN_PASSWORD_LENGTH, RESET_LINK_EXPIRED_MESSAGE } from "~/features/accounts/account-constants";
import { isSetPasswordTokenLive, setPasswordWithToken } from "~/features/accounts/account-invite.server";
import { submitClass } from "~/features/accounts/auth-fields";
import { ResetPasswordSchema } from "~/features/accounts/auth-schemas";
import { ExpiredLinkPage } from "~/features/accounts/expired-link-page";
import { signInAfterPasswordSet } from "~/features/accounts/sign-in.server";
import { getSessionUserById } from "~/models/user.server";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { readFormData } from "~/utils/form-data.server";
import { log } from "~/utils/logger.server";
import { STATIC_PAGE } from "~/utils/static-page";
import { TOKEN_PAGE_HEADERS } from "~/utils/token-page";

// The "Set your password" link of an account made from a quote request (decision 096): the
// reset page's twin. No React in the browser (decisions 066, 068); a GET or HEAD (a mail
// scanner) only reads whether the link is live; the password is set by the POST.
export const handle = STATIC_PAGE;
export const headers = () => TOKEN_PAGE_HEADERS;

const TITLE = "Set your password";

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const live = await isSetPasswordTokenLive(token);
  return json(
    { token: live ? token : null, script: live ? browserScriptUrl("auth-forms") : null },
    { status: live ? 200 : 410, headers: TOKEN_PAGE_HEADERS },
  );
}

// A refusal is Conform's `submission.reply()` (never with the password: `hideFields`).
type SetPasswordData = { expired: boolean; result?: SubmissionResult<string[]> };

export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const token = String(form.get("token") ?? "");
  const submission = parseWithZod(form, { schema: ResetPasswordSchema });
  if (submission.status !== "success") {
    return json<SetPasswordData>(
      { expired: false, result: submission.reply({ hideFields: ["password", "token"] }) },
      { status: 400 },
    );
  }
  const userId = await setPasswordWithToken(token, submission.value.password);
  const user = userId ? await getSessionUserById(userId) : null;
  if (!user) return json<SetPasswordData>({ expired: true }, { status: 410 });
  log.info("auth.password_set", { userId: user.id });
  return signInAfterPasswordSet(request, user);
}

export default function SetPasswordPage() {
  const { token, script } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  if (!token || data?.expired) {
    return (
      <ExpiredLinkPage
        title={TITLE}
        message={RESET_LINK_EXPIRED_MESSAGE}
        to="/auth/forgot-password"
        linkText="Request a new link"
      />
    );
  }
  return (
    <AccountPage title={TITLE}>
      <form id="set-password" method="post" className="grid gap-4">
        <input type="hidden" name="token" value={token} />
        <Field
          label="Password"
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
          Set password and sign in
        </button>
      </form>
      <BrowserScript src={script} />
    </AccountPage>
  );
}

export const meta: MetaFunction = () => [{ title: TITLE }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
