import { Link } from "@remix-run/react";
import type { YourPlanCardData } from "./your-plan-view";
import { tapLinkClass } from "~/components/ui-classes";

/** The customer dashboard's "Your Plan" card: the plan, the next visit, and the way to the plan's page. */
export function YourPlanCard({ plan, className = "" }: { plan: YourPlanCardData; className?: string }) {
  return (
    <section
      aria-labelledby="your-plan-heading"
      className={`rounded-2xl border border-slate-300 p-6 shadow-sm dark:border-slate-600 ${className}`}
    >
      <h2 id="your-plan-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Your Plan
      </h2>
      {plan ? (
        <>
          <p className="mt-2 text-lg font-semibold text-slate-900 dark:text-white">{plan.name}</p>
          <p className="text-slate-700 dark:text-slate-300">{plan.status}</p>
          <p className="mt-2 text-slate-800 dark:text-slate-100">
            {plan.nextVisit ? (
              <>
                Next visit:{" "}
                <time dateTime={plan.nextVisit.startsAt}>
                  {plan.nextVisit.day}, {plan.nextVisit.time}
                </time>
              </>
            ) : (
              "No visit scheduled"
            )}
          </p>
          <p className="mt-3">
            <Link to="/customer-dashboard/plan" className={tapLinkClass}>
              Manage your plan
            </Link>
          </p>
        </>
      ) : (
        <>
          <p className="mt-2 text-slate-700 dark:text-slate-300">No plan yet</p>
          <p className="mt-3">
            <Link to="/services" className={tapLinkClass}>
              See our plans
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
