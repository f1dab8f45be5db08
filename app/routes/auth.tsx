import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ActionToast, type ActionToastMessage } from "~/components/action-toast";
import { BrowserScript } from "~/components/browser-script";
import { ProviderButtons, WorkInProgressNote } from "~/features/accounts/auth-fields";
import { AuthTabs, SignInForm, SignUpForm, type AuthTab } from "~/features/accounts/auth-forms";
import { SignInSchema, SignUpSchema } from "~/features/accounts/auth-schemas";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { signInWithPassword, signUp, type AuthRefusal } from "~/features/accounts/password-sign-in.server";
import { finishFirstStep } from "~/features/accounts/sign-in.server";
import { readFormData } from "~/utils/form-data.server";
import { getOptionalUser, homeFor } from "~/features/accounts/auth.server";
import { getClientKey } from "~/utils/client-ip.server";
import { redirectWithSuccess } from "~/utils/toast.server";
import { privatePageMeta } from "~/utils/seo";
import { RETURN_PARAM, returnPathOf, safeReturnPath } from "~/utils/return-path";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { STATIC_PAGE } from "~/utils/static-page";

type Tab = AuthTab;

// No React in the browser (decisions 066, 068): the forms post as documents and
// auth-forms.browser.ts checks them as they are filled in.
export const handle = STATIC_PAGE;

export async function loader({ request, context }: LoaderFunctionArgs) {
  // A live session never sees the forms: admins to their portal, everyone else to theirs.
  const user = await getOptionalUser(request, context);
  const returnPath = returnPathOf(request);
  if (user) throw redirect(homeFor(user, returnPath));
  const tab: Tab = new URL(request.url).searchParams.get("tab") === "signup" ? "signup" : "signin";
  return json({ tab, returnPath, script: browserScriptUrl("auth-forms") });
}

type ActionData = { intent: Tab; result: SubmissionResult<string[]>; toast?: ActionToastMessage };

/** A failed submission stays on the page with its values (never the password) and a toast. */
function refuse(intent: Tab, result: SubmissionResult<string[]>, refusal?: AuthRefusal) {
  const toast: ActionToastMessage | undefined = refusal
    ? { message: intent === "signin" ? "Login failed" : "Sign up failed", description: refusal.message }
    : undefined;
  return json<ActionData>({ intent, result, toast }, { status: refusal?.status ?? 400, headers: refusal?.headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Not a form: 400. The workflows in features/accounts do the rest (issue 23).
  const formData = await readFormData(request);
  const clientKey = getClientKey(request, context);
  if (formData.get("intent") === "signup") {
    const submission = parseWithZod(formData, { schema: SignUpSchema });
    if (submission.status !== "success") return refuse("signup", submission.reply({ hideFields: ["password"] }));
    const outcome = await signUp(submission.value, clientKey);
    if (!outcome.ok) {
      return refuse("signup", submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }), outcome);
    }
    return redirectWithSuccess("/auth", {
      message: "Success!",
      description: "Account created successfully. You can now log in.",
    });
  }

  const submission = parseWithZod(formData, { schema: SignInSchema });
  if (submission.status !== "success") return refuse("signin", submission.reply({ hideFields: ["password"] }));
  const outcome = await signInWithPassword(submission.value, clientKey);
  if (!outcome.ok) {
    return refuse("signin", submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }), outcome);
  }
  return finishFirstStep(request, outcome.user, "password", safeReturnPath(formData.get(RETURN_PARAM)));
}

export default function AuthPage() {
  const { tab, returnPath, script } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-center text-3xl font-bold text-slate-900 dark:text-white">Customer Portal</h1>
      <AuthTabs current={tab} />
      <section
        aria-labelledby="auth-panel-heading"
        className="mt-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900"
      >
        <h2 id="auth-panel-heading" className="sr-only">
          {tab === "signin" ? "Sign In" : "Sign Up"}
        </h2>
        {tab === "signin" ? (
          <SignInForm
            lastResult={actionData?.intent === "signin" ? actionData.result : undefined}
            returnPath={returnPath}
          />
        ) : (
          <SignUpForm lastResult={actionData?.intent === "signup" ? actionData.result : undefined} />
        )}
        <ProviderButtons />
        <WorkInProgressNote />
      </section>
      <ActionToast toast={actionData?.toast} />
      <BrowserScript src={script} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(
    matches,
    "Customer Portal",
    "Sign in or create an account to see your services, photos and bookings.",
  );

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
