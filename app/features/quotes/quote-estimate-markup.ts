import { QUOTE_ESTIMATE_NOTE, quoteEstimateSentence } from "./quote-copy";
import type { QuoteEstimate } from "./quote-estimate";

/**
 * The inside of the quote form's live estimate (`#quote-estimate`) as HTML: the server renders
 * this string into the page and the browser script (quote-form.browser.ts) writes the same
 * string when the service or the dog count changes, so the two can never differ (decision 068).
 * Written the way a browser serializes it (`element.innerHTML`), so the script can tell whether
 * the estimate really changed: the live region then speaks only when it did.
 */

// Text only (no attribute takes content): what innerHTML escapes in text.
const escapeText = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\u00a0/g, "&nbsp;");

const line = (className: string, text: string) => `<p class="${className}">${escapeText(text)}</p>`;

export function quoteEstimateMarkup(estimate: QuoteEstimate | null): string {
  if (!estimate) return "";
  return [
    '<div class="rounded-lg bg-brand-50 p-4 dark:bg-brand-950 hc:bg-white">',
    line("text-lg font-semibold", quoteEstimateSentence(estimate.label)),
    estimate.breakdown ? line("text-sm", estimate.breakdown) : "",
    line("text-sm", QUOTE_ESTIMATE_NOTE),
    "</div>",
  ].join("");
}
