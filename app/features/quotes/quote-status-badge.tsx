import type { QuoteStatus } from "./quote-constants";
import { QUOTE_STATUS_LABELS } from "~/features/quotes/quote-format";

// Text and background pairs with at least 4.5:1 contrast in light, dark and high-contrast modes.
const TONES: Record<QuoteStatus, string> = {
  new: "bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-50",
  contacted: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-50",
  won: "bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-50",
  lost: "bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-50",
};

export function QuoteStatusBadge({ status }: { status: QuoteStatus }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-3 py-0.5 text-sm font-semibold hc:border hc:border-current ${TONES[status]}`}
    >
      {QUOTE_STATUS_LABELS[status]}
    </span>
  );
}

/** The inbox's flag for a request whose ZIP code is not in the served list. */
export function OutsideAreaBadge() {
  return (
    <span className="inline-flex items-center rounded-full bg-red-100 px-3 py-0.5 text-sm font-semibold text-red-900 dark:bg-red-900 dark:text-red-50 hc:border hc:border-current">
      Outside service area
    </span>
  );
}
