import type { SerializeFrom } from "@remix-run/node";
import type { loadAdminVisit, VisitActionData } from "./visit-page.server";

/** What the admin's visit page gets from its loader; each section takes its part. */
export type AdminVisitData = SerializeFrom<typeof loadAdminVisit>;

/** The state every form of the page shares: the last answer and whether a post is under way. */
export type AdminVisitFormState = { actionData: VisitActionData | undefined; busy: boolean };

/** The first error of a field in the last answer, if any. */
export const fieldError = (actionData: VisitActionData | undefined, field: string) =>
  (actionData?.fieldErrors?.[field] ?? [])[0];

export const linkClass =
  "font-semibold text-brand-800 underline underline-offset-4 hover:text-brand-900 dark:text-brand-200";
export const secondaryButtonClass =
  "inline-flex min-h-11 items-center rounded-full border-2 border-slate-500 px-5 py-2 font-semibold text-slate-900 hover:bg-slate-100 dark:border-slate-400 dark:text-white dark:hover:bg-slate-800";
export const panelClass = "rounded-xl border border-slate-300 p-5 dark:border-slate-600";
export const h3Class = "text-xl font-semibold text-slate-900 dark:text-white";
