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
import { createAccountWithPassword } from "~/features/accounts/accounts.server";
import { PasswordQueueBusy } from "~/features/accounts/password.server";
import {
  BUSY_MESSAGE,
  countSignInAttempt,
  countSignUpAttempt,
  forgetSignInAttempts,
  recordSignInFailure,
  refundSignInAttempt,
  slowDownSignIn,
  tooManyAttemptsMessage,
} from "~/features/accounts/auth-limits.server";
import { sendVerificationEmail } from "~/features/accounts/email-verification.server";
import { finishFirstStep } from "~/features/accounts/sign-in.server";
import { readFormData } from "~/utils/form-data.server";
import { getSessionUserById } from "~/models/user.server";
import { getOptionalUser, homeFor } from "~/features/accounts/auth.server";
import { describeAuthFailure, getAuthenticator, isAuthorizationError } from "~/features/accounts/authenticator.server";
import { getClientKey } from "~/utils/client-ip.server";
import { log } from "~/utils/logger.server";
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
function refuse(
  intent: Tab,
  result: SubmissionResult<string[]>,
  status: number,
  description?: string,
  headers?: HeadersInit,
) {
  const toast: ActionToastMessage | undefined = description
    ? { message: intent === "signin" ? "Login failed" : "Sign up failed", description }
    : undefined;
  return json<ActionData>({ intent, result, toast }, { status, headers });
}

/** The password checks are queued beyond a few seconds' wait (decision 055): try again shortly. */
function refuseBusy(intent: Tab, result: SubmissionResult<string[]>, busy: PasswordQueueBusy) {
  log.warn("auth.password_queue_full", { intent });
  return refuse(intent, result, 429, BUSY_MESSAGE, { "Retry-After": String(busy.retryAfterSeconds) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  // remix-auth reads the body itself, so the action reads a copy. Not a form: 400.
  const formData = await readFormData(request.clone());
  const ip = getClientKey(request, context);
  return formData.get("intent") === "signup" ? signUp(formData, ip) : signIn(request, formData, ip);
}

async function signIn(request: Request, formData: FormData, ip: string) {
  const submission = parseWithZod(formData, { schema: SignInSchema });
  if (submission.status !== "success") return refuse("signin", submission.reply({ hideFields: ["password"] }), 400);

  const limit = await countSignInAttempt(submission.value.email, ip);
  if (!limit.allowed) {
    const message = tooManyAttemptsMessage(limit.retryAfterSeconds);
    log.warn("auth.signin.limited", { ip });
    return refuse("signin", submission.reply({ formErrors: [message], hideFields: ["password"] }), 429, message, {
      "Retry-After": String(limit.retryAfterSeconds),
    });
  }

  // An address drawing failures from everywhere answers more slowly; it is never refused.
  await slowDownSignIn(submission.value.email);

  let userId: string;
  try {
    userId = await getAuthenticator().authenticate("form", request, { context: { formData } });
  } catch (error) {
    if (!isAuthorizationError(error)) throw error;
    if (error.cause instanceof PasswordQueueBusy) {
      await refundSignInAttempt(submission.value.email, ip);
      return refuseBusy(
        "signin",
        submission.reply({ formErrors: [BUSY_MESSAGE], hideFields: ["password"] }),
        error.cause,
      );
    }
    await recordSignInFailure(submission.value.email);
    const message = describeAuthFailure(error);
    log.info("auth.signin.failed", { ip });
    return refuse("signin", submission.reply({ formErrors: [message], hideFields: ["password"] }), 401, message);
  }

  const user = await getSessionUserById(userId);
  if (!user) throw new Error("Signed-in user vanished");
  await forgetSignInAttempts(submission.value.email, ip);
  return finishFirstStep(request, user, "password", safeReturnPath(formData.get(RETURN_PARAM)));
}

async function signUp(formData: FormData, ip: string) {
  const submission = parseWithZod(formData, { schema: SignUpSchema });
  if (submission.status !== "success") return refuse("signup", submission.reply({ hideFields: ["password"] }), 400);

  const limit = await countSignUpAttempt(submission.value.email, ip);
  if (!limit.allowed) {
    const message = tooManyAttemptsMessage(limit.retryAfterSeconds);
    return refuse("signup", submission.reply({ formErrors: [message], hideFields: ["password"] }), 429, message, {
      "Retry-After": String(limit.retryAfterSeconds),
    });
  }

  let created: Awaited<ReturnType<typeof createAccountWithPassword>>;
  try {
    created = await createAccountWithPassword(submission.value);
  } catch (error) {
    if (error instanceof PasswordQueueBusy)
      return refuseBusy("signup", submission.reply({ formErrors: [BUSY_MESSAGE], hideFields: ["password"] }), error);
    throw error;
  }
  if (!created.ok) {
    // Says no more than it must: the address cannot be used, not whose it is.
    const message = "We could not create an account with this email. If you already have one, please sign in.";
    return refuse("signup", submission.reply({ formErrors: [message], hideFields: ["password"] }), 400, message);
  }
  log.info("auth.signup", { userId: created.userId });
  await sendVerificationEmail(created.userId);
  return redirectWithSuccess("/auth", {
    message: "Success!",
    description: "Account created successfully. You can now log in.",
  });
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
