import type { QuoteStatus } from "./quote-constants";

// The business runs in Southern Nevada: the inbox and the e-mails show its local time, the same
// on the server and in the browser (no hydration mismatch, no guessing the reader's zone).
const TIME_ZONE = "America/Los_Angeles";

const dateTime = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: TIME_ZONE,
});

/** "Nov 21, 2026, 2:15 PM" in the business's time zone. */
export function formatQuoteTime(value: Date | string): string {
  return dateTime.format(new Date(value));
}

export const QUOTE_STATUS_LABELS: Record<QuoteStatus, string> = {
  new: "New",
  contacted: "Contacted",
  won: "Won",
  lost: "Lost",
};
