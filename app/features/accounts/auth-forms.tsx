import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import { ErrorList, Field } from "~/components/forms";
import { linkClass } from "~/components/ui-classes";
import { authInputProps, RESERVED_ERROR_LINE, submitClass } from "./auth-fields";
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

export function SignInForm({
  lastResult,
  returnPath,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  /** The page to come back to after signing in (already checked by the loader). */
  returnPath?: string | null;
}) {
  const { errorsOf, valueOf, formErrors } = refusalOf(lastResult);
  // The return path rides in the action's URL too, so that a refused post keeps it.
  const action = returnPath ? `/auth?${new URLSearchParams({ [RETURN_PARAM]: returnPath })}` : "/auth";
  return (
    <form
      id="signin"
      method="post"
      action={action}
      className="grid gap-2"
      aria-describedby={formErrors?.length ? "signin-error" : undefined}
    >
      <input type="hidden" name="intent" value="signin" />
      {returnPath ? <input type="hidden" name={RETURN_PARAM} value={returnPath} /> : null}
      <Field
        label="Email"
        inputProps={authInputProps({
          formId: "signin",
          name: "email",
          type: "email",
          autoComplete: "email",
          constraint: SIGN_IN_CONSTRAINT.email,
          defaultValue: valueOf("email"),
        })}
        errors={errorsOf("email")}
        errorClassName={RESERVED_ERROR_LINE}
      />
      <Field
        label="Password"
        inputProps={authInputProps({
          formId: "signin",
          name: "password",
          type: "password",
          autoComplete: "current-password",
          constraint: SIGN_IN_CONSTRAINT.password,
        })}
        errors={errorsOf("password")}
        errorClassName={RESERVED_ERROR_LINE}
      />
      <p className="text-sm">
        <a href="/auth/forgot-password" className={linkClass}>
          Forgot password?
        </a>
      </p>
      <ErrorList id="signin-error" errors={formErrors} />
      <button type="submit" className={submitClass} data-busy-label="Signing in...">
        Sign In
      </button>
    </form>
  );
}

export function SignUpForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { errorsOf, valueOf, formErrors } = refusalOf(lastResult);
  return (
    <form
      id="signup"
      method="post"
      action="/auth?tab=signup"
      className="grid gap-2"
      aria-describedby={formErrors?.length ? "signup-error" : undefined}
    >
      <input type="hidden" name="intent" value="signup" />
      <Field
        label="Full Name"
        inputProps={authInputProps({
          formId: "signup",
          name: "fullName",
          type: "text",
          autoComplete: "name",
          constraint: SIGN_UP_CONSTRAINT.fullName,
          defaultValue: valueOf("fullName"),
        })}
        errors={errorsOf("fullName")}
        errorClassName={RESERVED_ERROR_LINE}
      />
      <Field
        label="Email"
        inputProps={authInputProps({
          formId: "signup",
          name: "email",
          type: "email",
          autoComplete: "email",
          constraint: SIGN_UP_CONSTRAINT.email,
          defaultValue: valueOf("email"),
        })}
        errors={errorsOf("email")}
        errorClassName={RESERVED_ERROR_LINE}
      />
      <Field
        label="Password"
        inputProps={authInputProps({
          formId: "signup",
          name: "password",
          type: "password",
          autoComplete: "new-password",
          constraint: SIGN_UP_CONSTRAINT.password,
        })}
        errors={errorsOf("password")}
        description="At least 6 characters."
        errorClassName={RESERVED_ERROR_LINE}
      />
      <ErrorList id="signup-error" errors={formErrors} />
      <button type="submit" className={submitClass} data-busy-label="Creating account...">
        Create Account
      </button>
    </form>
  );
}
