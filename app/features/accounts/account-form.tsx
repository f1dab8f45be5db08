import type { ReactNode } from "react";

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm " +
  "aria-[invalid=true]:border-red-700 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:aria-[invalid=true]:border-red-400 " +
  "hc:border-black hc:border-2";

export const linkClass =
  "font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900 dark:text-brand-200 dark:hover:text-white";

/** The card the account pages (reset, verify, two-step) sit in, with their one h1. */
export function AccountPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-center text-3xl font-bold text-slate-900 dark:text-white">{title}</h1>
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        {children}
      </div>
    </div>
  );
}

/** A labelled input whose error (from the server or the page's browser script) is announced with it; works without JavaScript. */
export function PlainField({
  id,
  label,
  name,
  type,
  autoComplete,
  error,
  hint,
  inputMode,
  minLength,
  maxLength,
}: {
  id: string;
  label: string;
  name: string;
  type: "email" | "password" | "text";
  autoComplete: string;
  error?: string;
  hint?: string;
  inputMode?: "numeric" | "text";
  minLength?: number;
  maxLength?: number;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-900 dark:text-slate-100">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        required
        autoComplete={autoComplete}
        inputMode={inputMode}
        minLength={minLength}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={inputClass}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {hint}
        </p>
      ) : null}
      {/* Always there (hidden while empty): the account pages' browser script writes its
          messages into it (decision 068). */}
      <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700 empty:hidden dark:text-red-300">
        {error}
      </p>
    </div>
  );
}
