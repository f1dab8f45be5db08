import type { QuoteStatus } from "./quote-constants";
import { QUOTE_STATUS_LABELS } from "~/features/quotes/quote-format";

// Text and background pairs with at least 4.5:1 contrast in light, dark and high-contrast modes:
// component classes in app/tailwind.css (`.quote-badge`, `.quote-*`, decision 076).
const TONES: Record<QuoteStatus, string> = {
  // The visit badges' tones where the colours are the same (their ring colour is unused here).
  new: "badge-blue",
  contacted: "quote-contacted",
  won: "badge-green",
  lost: "quote-lost",
};

export function QuoteStatusBadge({ status }: { status: QuoteStatus }) {
  return <span className={`quote-badge ${TONES[status]}`}>{QUOTE_STATUS_LABELS[status]}</span>;
}

/** The inbox's flag for a request whose ZIP code is not in the served list. */
export function OutsideAreaBadge() {
  return <span className="quote-badge quote-outside">Outside service area</span>;
}
