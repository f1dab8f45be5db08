import type { SerializeFrom } from "@remix-run/node";
import type { loadAdminVisit, VisitActionData } from "./visit-page.server";

/** What the admin's visit page gets from its loader; each section takes its part. */
export type AdminVisitData = SerializeFrom<typeof loadAdminVisit>;

/** The state every form of the page shares: the last answer and whether a post is under way. */
export type AdminVisitFormState = { actionData: VisitActionData | undefined; busy: boolean };

/** A field's messages in the last answer (Conform's `submission.reply()`), if any. */
export const fieldErrors = (actionData: VisitActionData | undefined, field: string) =>
  actionData?.result?.error?.[field] ?? undefined;

// The page's own panels and section headings; links and buttons come from ~/components/ui-classes.
export const panelClass = "rounded-xl border border-slate-300 p-5 dark:border-slate-600";
export const h3Class = "text-xl font-semibold text-slate-900 dark:text-white";
