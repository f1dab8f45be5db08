import type { QuoteStatus } from "../../../db/schema";

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

/** "tel:+17025550123" from a stored "(702) 555-0123". */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return `tel:+1${digits.slice(-10)}`;
}
