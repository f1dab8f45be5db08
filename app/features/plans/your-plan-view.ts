import type { SerializeFrom } from "@remix-run/node";
import type { loadYourPlan, loadYourPlanCard, YourPlanActionData } from "./your-plan.server";

/** What "Your Plan" gets from its loader; each section takes its part. */
export type YourPlanData = SerializeFrom<typeof loadYourPlan>;
export type YourPlanInfo = NonNullable<YourPlanData["plan"]>;
export type UpcomingVisit = YourPlanData["visits"][number];
export type YourPlanCardData = SerializeFrom<typeof loadYourPlanCard>;
export type { YourPlanActionData };

// The page's own section look; links and buttons come from ~/components/ui-classes.
export const sectionClass = "mt-8 rounded-2xl border border-slate-300 p-6 shadow-sm dark:border-slate-600";
export const h2Class = "text-2xl font-bold text-slate-900 dark:text-white";
export const mutedClass = "text-slate-700 dark:text-slate-300";
