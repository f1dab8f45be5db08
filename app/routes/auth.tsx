import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthorizationError } from "remix-auth";
import { z } from "zod";
import { ActionToast, type ActionToastMessage } from "~/components/action-toast";
import { Field, ProviderButtons, submitClass, WorkInProgressNote } from "~/features/accounts/auth-fields";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { createAccountWithPassword } from "~/features/accounts/accounts.server";
import {
  countSignInAttempt,
  countSignUpAttempt,
  forgetSignInAttempts,
  recordSignInFailure,
  slowDownSignIn,
  tooManyAttemptsMessage,
} from "~/features/accounts/auth-limits.server";
import { MIN_PASSWORD_LENGTH } from "~/features/accounts/account-constants";
import { sendVerificationEmail } from "~/features/accounts/email-verification.server";
import { finishFirstStep } from "~/features/accounts/sign-in.server";
import { readFormData } from "~/utils/form-data.server";
import { getSessionUserById } from "~/models/user.server";
import { getOptionalUser, homeFor } from "~/features/accounts/auth.server";
import { describeAuthFailure, getAuthenticator } from "~/features/accounts/authenticator.server";
import { getClientIp } from "~/utils/client-ip.server";
import { log } from "~/utils/logger.server";
import { redirectWithSuccess } from "~/utils/toast.server";
import { privatePageMeta } from "~/utils/seo";

type Tab = "signin" | "signup";

export async function loader({ request }: LoaderFunctionArgs) {
  // A live session never sees the forms: admins to their portal, everyone else to theirs.
  const user = await getOptionalUser(request);
  if (user) throw redirect(homeFor(user));
  const tab: Tab = new URL(request.url).searchParams.get("tab") === "signup" ? "signup" : "signin";
  return json({ tab });
}

const email = z
  .string({ required_error: "Email is required" })
  .trim()
  .email("Enter a valid email address")
  .max(320, "Email is too long");

export const SignInSchema = z.object({
  email,
  password: z.string({ required_error: "Password is required" }).max(1024, "Password is too long"),
});

export const SignUpSchema = z.object({
  fullName: z
    .string({ required_error: "Full name is required" })
    .trim()
    .min(1, "Full name is required")
    .max(200, "Full name is too long"),
  email,
  password: z
    .string({ required_error: "Password is required" })
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(1024, "Password is too long"),
});

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

export async function action({ request, context }: ActionFunctionArgs) {
  // remix-auth reads the body itself, so the action reads a copy. Not a form: 400.
  const formData = await readFormData(request.clone());
  const ip = getClientIp(request, context);
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
    if (!(error instanceof AuthorizationError)) throw error;
    await recordSignInFailure(submission.value.email);
    const message = describeAuthFailure(error);
    log.info("auth.signin.failed", { ip });
    return refuse("signin", submission.reply({ formErrors: [message], hideFields: ["password"] }), 401, message);
  }

  const user = await getSessionUserById(userId);
  if (!user) throw new Error("Signed-in user vanished");
  await forgetSignInAttempts(submission.value.email, ip);
  return finishFirstStep(request, user, "password");
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

  const created = await createAccountWithPassword(submission.value);
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
  const { tab } = useLoaderData<typeof loader>();
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
          <SignInForm lastResult={actionData?.intent === "signin" ? actionData.result : undefined} />
        ) : (
          <SignUpForm lastResult={actionData?.intent === "signup" ? actionData.result : undefined} />
        )}
        <ProviderButtons />
        <WorkInProgressNote />
      </section>
      <ActionToast toast={actionData?.toast} />
    </div>
  );
}

/** Tabs are links, so each is a URL that works without JavaScript. */
function AuthTabs({ current }: { current: Tab }) {
  const tabs = [
    { id: "signin", label: "Sign In", to: "/auth" },
    { id: "signup", label: "Sign Up", to: "/auth?tab=signup" },
  ] as const;
  return (
    <nav aria-label="Sign in or sign up" className="mt-8">
      <ul className="grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
        {tabs.map((t) => (
          <li key={t.id}>
            <Link
              to={t.to}
              preventScrollReset
              aria-current={current === t.id ? "page" : undefined}
              className="flex min-h-11 items-center justify-center rounded-md px-4 py-2 font-semibold text-slate-700 hover:text-slate-900 aria-[current=page]:bg-white aria-[current=page]:text-brand-800 aria-[current=page]:shadow dark:text-slate-200 dark:hover:text-white dark:aria-[current=page]:bg-slate-950 dark:aria-[current=page]:text-brand-200"
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function useBusy(intent: Tab) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

function SignInForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const busy = useBusy("signin");
  const [form, fields] = useForm({
    id: "signin",
    defaultNoValidate: false,
    lastResult,
    constraint: getZodConstraint(SignInSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignInSchema }),
  });
  return (
    <Form method="post" action="/auth" className="grid gap-2" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="signin" />
      <Field label="Email" meta={fields.email} type="email" autoComplete="email" />
      <Field label="Password" meta={fields.password} type="password" autoComplete="current-password" />
      <p className="text-sm">
        <Link
          to="/auth/forgot-password"
          className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900 dark:text-brand-200 dark:hover:text-white"
        >
          Forgot password?
        </Link>
      </p>
      <FormError id={form.errorId} errors={form.errors} />
      <button type="submit" className={submitClass} disabled={busy}>
        {busy ? "Signing in..." : "Sign In"}
      </button>
    </Form>
  );
}

function SignUpForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const busy = useBusy("signup");
  const [form, fields] = useForm({
    id: "signup",
    defaultNoValidate: false,
    lastResult,
    constraint: getZodConstraint(SignUpSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignUpSchema }),
  });
  return (
    <Form method="post" action="/auth?tab=signup" className="grid gap-2" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="signup" />
      <Field label="Full Name" meta={fields.fullName} type="text" autoComplete="name" />
      <Field label="Email" meta={fields.email} type="email" autoComplete="email" />
      <Field
        label="Password"
        meta={fields.password}
        type="password"
        autoComplete="new-password"
        hint="At least 6 characters."
      />
      <FormError id={form.errorId} errors={form.errors} />
      <button type="submit" className={submitClass} disabled={busy}>
        {busy ? "Creating account..." : "Create Account"}
      </button>
    </Form>
  );
}

function FormError({ id, errors }: { id: string; errors: string[] | undefined }) {
  return (
    <p id={id} className="text-sm font-medium text-red-700 empty:hidden dark:text-red-300">
      {errors?.join(" ")}
    </p>
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
