import type { getZodConstraint } from "@conform-to/zod";

/** One field's constraints from its schema: `required`, `minLength`, `maxLength`. */
export type FieldConstraint = ReturnType<typeof getZodConstraint>[string];

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm " +
  "aria-[invalid=true]:border-red-700 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:aria-[invalid=true]:border-red-400 " +
  "hc:border-black hc:border-2";

/**
 * A labelled input with its hint and its errors, rendered by the server only (the page ships no
 * React, decision 068): ids follow Conform's naming (`<form>-<name>`, `-error`, `-hint`), which
 * the browser script's `enhanceForm` writes its messages into.
 */
export function Field({
  formId,
  name,
  label,
  type,
  autoComplete,
  constraint,
  errors,
  defaultValue,
  hint,
}: {
  formId: string;
  name: string;
  label: string;
  type: "email" | "password" | "text";
  autoComplete: string;
  /** The schema's constraints (`getZodConstraint`): the checks the browser makes without JavaScript. */
  constraint: FieldConstraint | undefined;
  /** The server's messages after a refused post. */
  errors?: string[] | null;
  /** The value sent, after a refused post (never a password's). */
  defaultValue?: string;
  hint?: string;
}) {
  const id = `${formId}-${name}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.length);
  const describedBy = [invalid ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-900 dark:text-slate-100">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        required={constraint?.required}
        minLength={constraint?.minLength}
        maxLength={constraint?.maxLength}
        autoComplete={autoComplete}
        defaultValue={type === "password" ? undefined : defaultValue}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy || undefined}
        className={inputClass}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {hint}
        </p>
      ) : null}
      {/* Its line is kept when empty (min-h-5), so that a message never moves the fields below;
          `block` keeps it when the script marks it `hidden` (a utility class outranks the base
          style of [hidden]). */}
      <p id={errorId} className="mt-1 block min-h-5 text-sm font-medium text-red-700 dark:text-red-300">
        {errors?.join(" ")}
      </p>
    </div>
  );
}

export const submitClass =
  "inline-flex min-h-11 w-full items-center justify-center rounded-full bg-brand-700 px-6 py-2 text-base font-semibold text-white shadow " +
  "hover:bg-brand-800 disabled:cursor-wait disabled:opacity-80 aria-disabled:cursor-wait aria-disabled:opacity-80 dark:bg-brand-500 dark:text-brand-950 dark:hover:bg-brand-400";

const providerClass =
  "inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-full border-2 border-slate-400 bg-white px-6 py-2 " +
  "text-base font-semibold text-slate-900 hover:bg-slate-50 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";

/**
 * "Sign in with Google/Facebook" are real forms posting to /auth/{provider}: they work without
 * JavaScript, and the whole page leaves for the provider.
 */
export function ProviderButtons() {
  return (
    <div className="mt-6">
      <p className="flex items-center gap-3 text-sm text-slate-700 before:h-px before:flex-1 before:bg-slate-300 after:h-px after:flex-1 after:bg-slate-300 dark:text-slate-300 dark:before:bg-slate-600 dark:after:bg-slate-600">
        or
      </p>
      <div className="mt-4 grid gap-3">
        <form method="post" action="/auth/google">
          <button type="submit" className={providerClass}>
            Sign in with Google
          </button>
        </form>
        <form method="post" action="/auth/facebook">
          <button type="submit" className={providerClass}>
            Sign in with Facebook
          </button>
        </form>
      </div>
    </div>
  );
}

/** The spec's note on each tab. */
export function WorkInProgressNote() {
  return (
    <p className="mt-6 rounded-md border border-sand-200 bg-sand-50 p-3 text-sm text-sand-900 dark:border-sand-700 dark:bg-slate-900 dark:text-sand-100">
      Note: this section is still being worked on. Please use your e-mail to sign in or sign up and place an order.
    </p>
  );
}
