import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { getZodConstraint } from "@conform-to/zod";
import { ErrorList, Field } from "~/components/forms";
import { linkClass } from "~/components/ui-classes";
import { authInputProps, RESERVED_ERROR_LINE, submitClass, type FieldConstraint } from "./auth-fields";
import { RETURN_PARAM } from "~/utils/return-path";
import { SignInSchema, SignUpSchema } from "./auth-schemas";

export type AuthTab = "signin" | "signup";

// The Sign In and Sign Up forms are plain HTML (decision 068): they post as documents, the
// server answers a refusal with the form again (its messages, the values sent but never the
// password, a toast), and `auth-forms.browser.ts` adds instant validation and the busy labels.
// No hooks: React renders them on the server only, and a hydrated /auth (after a flash toast)
// has nothing to re-render.

const SIGN_IN_CONSTRAINT = getZodConstraint(SignInSchema);
const SIGN_UP_CONSTRAINT = getZodConstraint(SignUpSchema);
/** The one field the two forms share as it is. */
const EMAIL_FIELD = { label: "Email", name: "email", type: "email", autoComplete: "email" } as const;

/** Tabs are plain links, so each is a URL that works without JavaScript (and a full page load). */
export function AuthTabs({ current }: { current: AuthTab }) {
  const tabs = [
    { id: "signin", label: "Sign In", href: "/auth" },
    { id: "signup", label: "Sign Up", href: "/auth?tab=signup" },
  ] as const;
  return (
    <nav aria-label="Sign in or sign up" className="mt-8">
      <ul className="grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
        {tabs.map((t) => (
          <li key={t.id}>
            <a
              href={t.href}
              aria-current={current === t.id ? "page" : undefined}
              className="flex min-h-11 items-center justify-center rounded-md px-4 py-2 font-semibold text-slate-700 hover:text-slate-900 aria-[current=page]:bg-white aria-[current=page]:text-brand-800 aria-[current=page]:shadow dark:text-slate-200 dark:hover:text-white dark:aria-[current=page]:bg-slate-950 dark:aria-[current=page]:text-brand-200"
            >
              {t.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What a refused post sent back: the messages by field ("" for the form's) and the values. */
function refusalOf(lastResult: SubmissionResult<string[]> | undefined) {
  const errors = lastResult?.error ?? {};
  const values = lastResult?.initialValue ?? {};
  return {
    errorsOf: (name: string) => errors[name] ?? undefined,
    valueOf: (name: string) => {
      const value = values[name];
      return typeof value === "string" ? value : undefined;
    },
    formErrors: errors[""] ?? undefined,
  };
}

type Refusal = ReturnType<typeof refusalOf>;

/**
 * The frame both forms share: the intent, the form's own message (its id the form's
 * description) and the submit button with the busy label the browser script shows.
 */
function AuthForm({
  id,
  action,
  refusal,
  submitLabel,
  busyLabel,
  children,
}: {
  id: AuthTab;
  action: string;
  refusal: Refusal;
  submitLabel: string;
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <form
      id={id}
      method="post"
      action={action}
      className="grid gap-2"
      aria-describedby={refusal.formErrors?.length ? `${id}-error` : undefined}
    >
      <input type="hidden" name="intent" value={id} />
      {children}
      <ErrorList id={`${id}-error`} errors={refusal.formErrors} />
      <button type="submit" className={submitClass} data-busy-label={busyLabel}>
        {submitLabel}
      </button>
    </form>
  );
}

/** One field: its schema's constraints, the value sent back (never a password's) and its messages. */
function AuthField({
  formId,
  refusal,
  constraints,
  label,
  name,
  type,
  autoComplete,
  description,
}: {
  formId: AuthTab;
  refusal: Refusal;
  /** The form's schema's constraints, by field name. */
  constraints: Record<string, FieldConstraint>;
  label: string;
  name: string;
  type: "email" | "password" | "text";
  autoComplete: string;
  description?: string;
}) {
  return (
    <Field
      label={label}
      inputProps={authInputProps({
        formId,
        name,
        type,
        autoComplete,
        constraint: constraints[name],
        defaultValue: refusal.valueOf(name),
      })}
      errors={refusal.errorsOf(name)}
      description={description}
      errorClassName={RESERVED_ERROR_LINE}
    />
  );
}

export function SignInForm({
  lastResult,
  returnPath,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  /** The page to come back to after signing in (already checked by the loader). */
  returnPath?: string | null;
}) {
  const refusal = refusalOf(lastResult);
  const field = { formId: "signin", refusal, constraints: SIGN_IN_CONSTRAINT } as const;
  // The return path rides in the action's URL too, so that a refused post keeps it.
  const action = returnPath ? `/auth?${new URLSearchParams({ [RETURN_PARAM]: returnPath })}` : "/auth";
  return (
    <AuthForm id="signin" action={action} refusal={refusal} submitLabel="Sign In" busyLabel="Signing in...">
      {returnPath ? <input type="hidden" name={RETURN_PARAM} value={returnPath} /> : null}
      <AuthField {...field} {...EMAIL_FIELD} />
      <AuthField {...field} label="Password" name="password" type="password" autoComplete="current-password" />
      <p className="text-sm">
        <a href="/auth/forgot-password" className={linkClass}>
          Forgot password?
        </a>
      </p>
    </AuthForm>
  );
}

export function SignUpForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const refusal = refusalOf(lastResult);
  const field = { formId: "signup", refusal, constraints: SIGN_UP_CONSTRAINT } as const;
  return (
    <AuthForm
      id="signup"
      action="/auth?tab=signup"
      refusal={refusal}
      submitLabel="Create Account"
      busyLabel="Creating account..."
    >
      <AuthField {...field} label="Full Name" name="fullName" type="text" autoComplete="name" />
      <AuthField {...field} {...EMAIL_FIELD} />
      <AuthField
        {...field}
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        description="At least 6 characters."
      />
    </AuthForm>
  );
}
