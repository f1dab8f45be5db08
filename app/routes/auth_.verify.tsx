import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BrowserScript } from "~/components/browser-script";
import { submitClass } from "~/features/accounts/auth-fields";
import { Field } from "~/components/forms";
import { AccountPage } from "~/features/accounts/account-form";
import { TwoStepCodeSchema } from "~/features/accounts/auth-schemas";
import { finishSecondStep } from "~/features/accounts/sign-in.server";
import {
  answerSignInChallenge,
  clearChallengeCookie,
  readSignInChallenge,
  tooManyCodesMessage,
} from "~/features/accounts/two-step.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getSessionUserById } from "~/models/user.server";
import { readFormData } from "~/utils/form-data.server";
import { log } from "~/utils/logger.server";
import { redirectWithError } from "~/utils/toast.server";
import { RETURN_PARAM, returnPathOf, safeReturnPath } from "~/utils/return-path";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { STATIC_PAGE } from "~/utils/static-page";

// No React in the browser (decisions 066, 068): the form posts as a document and
// auth-forms.browser.ts asks for a code before it is sent.
export const handle = STATIC_PAGE;

const START_OVER = { message: "Sign in again", description: "Your sign-in expired or had too many wrong codes." };

async function startOver() {
  return redirectWithError("/auth", START_OVER, { headers: { "Set-Cookie": await clearChallengeCookie() } });
}

// Reached only with a right password (or Google/Facebook) and the challenge cookie it set.
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await readSignInChallenge(request))) throw await startOver();
  return json({ returnPath: returnPathOf(request), script: browserScriptUrl("auth-forms") });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: TwoStepCodeSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["code"] }) }, { status: 400 });
  }
  const result = await answerSignInChallenge(request, submission.value.code.slice(0, 40));
  if (result.status === "start-over") return startOver();
  if (result.status === "limited") {
    log.warn("auth.second_step.limited", {});
    return json(
      {
        result: submission.reply({
          fieldErrors: { code: [tooManyCodesMessage(result.retryAfterSeconds)] },
          hideFields: ["code"],
        }),
      },
      { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
    );
  }
  if (result.status === "wrong") {
    log.info("auth.second_step.failed", { remaining: result.remaining });
    return json(
      {
        result: submission.reply({
          fieldErrors: { code: ["That code is not right. Please try again."] },
          hideFields: ["code"],
        }),
      },
      { status: 400 },
    );
  }
  const user = await getSessionUserById(result.userId);
  if (!user) return startOver();
  return finishSecondStep(request, user, safeReturnPath(form.get(RETURN_PARAM)));
}

export default function VerifyPage() {
  const data = useActionData<typeof action>();
  const { returnPath, script } = useLoaderData<typeof loader>();
  return (
    <AccountPage title="Two-step verification">
      <p className="text-slate-800 dark:text-slate-200">
        Enter the 6-digit code from your authenticator app, or one of your recovery codes.
      </p>
      <form id="two-step" method="post" className="mt-4 grid gap-4">
        {returnPath ? <input type="hidden" name={RETURN_PARAM} value={returnPath} /> : null}
        <Field
          label="Verification code"
          inputProps={{
            id: "code",
            name: "code",
            type: "text",
            required: true,
            inputMode: "text",
            autoComplete: "one-time-code",
            maxLength: 40,
          }}
          errors={data?.result.error?.code}
        />
        <button type="submit" className={submitClass}>
          Verify
        </button>
      </form>
      <BrowserScript src={script} />
    </AccountPage>
  );
}

export const meta: MetaFunction = () => [{ title: "Two-step verification" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
