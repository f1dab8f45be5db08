import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Field, submitClass } from "./auth-fields";
import { RETURN_PARAM } from "~/utils/return-path";
import { SignInSchema, SignUpSchema } from "./auth-schemas";

export type AuthTab = "signin" | "signup";

/** Tabs are links, so each is a URL that works without JavaScript. */
export function AuthTabs({ current }: { current: AuthTab }) {
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

function useBusy(intent: AuthTab) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

export function SignInForm({
  lastResult,
  returnPath,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  /** The page to come back to after signing in (already checked by the loader). */
  returnPath?: string | null;
}) {
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
      {returnPath ? <input type="hidden" name={RETURN_PARAM} value={returnPath} /> : null}
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

export function SignUpForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
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
