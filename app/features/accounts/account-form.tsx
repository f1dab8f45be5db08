import type { ReactNode } from "react";

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
