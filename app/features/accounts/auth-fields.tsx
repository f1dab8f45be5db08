import type { getZodConstraint } from "@conform-to/zod";
import type { InputHTMLAttributes } from "react";
import { errorClass, primaryButtonClass, secondaryButtonClass } from "~/components/ui-classes";

/** One field's constraints from its schema: `required`, `minLength`, `maxLength`. */
export type FieldConstraint = ReturnType<typeof getZodConstraint>[string];

/**
 * The props of an account form's input (for the kit's `Field`), rendered by the server only (the
 * page ships no React, decision 068): ids follow Conform's naming (`<form>-<name>`, `-error`,
 * `-hint`), which the browser script's `enhanceForm` writes its messages into; the schema's
 * constraints are the checks the browser makes without JavaScript; a password is never sent back.
 */
export function authInputProps({
  formId,
  name,
  type,
  autoComplete,
  constraint,
  defaultValue,
}: {
  formId: string;
  name: string;
  type: "email" | "password" | "text";
  autoComplete: string;
  constraint: FieldConstraint | undefined;
  /** The value sent, after a refused post. */
  defaultValue?: string;
}): InputHTMLAttributes<HTMLInputElement> {
  return {
    id: `${formId}-${name}`,
    name,
    type,
    autoComplete,
    required: constraint?.required,
    minLength: constraint?.minLength,
    maxLength: constraint?.maxLength,
    defaultValue: type === "password" ? undefined : defaultValue,
  };
}

/**
 * The error line of the Sign In and Sign Up fields is kept when empty (min-h-5), so that a
 * message never moves the fields below; `block` keeps it when it is `hidden` (a utility class
 * outranks the base style of [hidden]).
 */
export const RESERVED_ERROR_LINE = `${errorClass} block min-h-5`;

export const submitClass = `${primaryButtonClass} w-full`;

const providerClass = `${secondaryButtonClass} w-full gap-2`;

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
