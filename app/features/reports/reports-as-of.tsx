import { BUSINESS_TIME_ZONE } from "~/utils/business-time";

const timeFormat = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: BUSINESS_TIME_ZONE,
});

/**
 * When the nightly aggregates were made (docs/decisions/130): recurring revenue, customers,
 * cohorts, visits and failed payments are as of then; money and aging are always current.
 */
export function ReportsAsOf({ asOf }: { asOf: string | null }) {
  return (
    <p className="mt-2 text-sm text-slate-700 dark:text-slate-300" data-testid="reports-as-of">
      {asOf
        ? `Monthly figures as of ${timeFormat.format(new Date(asOf))} (made each night); money and aging are current.`
        : "Monthly figures are made each night: none yet. Money and aging are current."}
    </p>
  );
}
