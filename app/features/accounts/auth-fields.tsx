import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm " +
  "aria-[invalid=true]:border-red-700 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:aria-[invalid=true]:border-red-400 " +
  "hc:border-black hc:border-2";

/** A labelled input with its hint and its errors, wired for screen readers by Conform. */
export function Field({
  label,
  meta,
  type,
  autoComplete,
  hint,
}: {
  label: string;
  meta: FieldMetadata<string>;
  type: "email" | "password" | "text";
  autoComplete: string;
  hint?: string;
}) {
  const hintId = `${meta.id}-hint`;
  const { key, ...props } = getInputProps(meta, { type, ariaDescribedBy: hint ? hintId : undefined });
  return (
    <div>
      <label htmlFor={meta.id} className="block font-medium text-slate-900 dark:text-slate-100">
        {label}
      </label>
      <input key={key} {...props} autoComplete={autoComplete} className={inputClass} />
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {hint}
        </p>
      ) : null}
      <p id={meta.errorId} className="mt-1 min-h-5 text-sm font-medium text-red-700 dark:text-red-300">
        {meta.errors?.join(" ")}
      </p>
    </div>
  );
}

export const submitClass =
  "inline-flex min-h-11 w-full items-center justify-center rounded-full bg-brand-700 px-6 py-2 text-base font-semibold text-white shadow " +
  "hover:bg-brand-800 disabled:cursor-wait disabled:opacity-80 dark:bg-brand-500 dark:text-brand-950 dark:hover:bg-brand-400";

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
        <Form method="post" action="/auth/google" reloadDocument>
          <button type="submit" className={providerClass}>
            Sign in with Google
          </button>
        </Form>
        <Form method="post" action="/auth/facebook" reloadDocument>
          <button type="submit" className={providerClass}>
            Sign in with Facebook
          </button>
        </Form>
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
