import type { QuoteServiceOption, AddOn } from "~/content/types";
import type { EstimateAddOn, EstimateServiceOption } from "./quote-estimate";

/** The elements quote-form.tsx renders and quote-form.browser.ts finds. */
export const QUOTE_FORM_ID = "quote-form";
export const QUOTE_ESTIMATE_ID = "quote-estimate";
export const QUOTE_SENT_HEADING_ID = "quote-sent-heading";

/**
 * What the quote form's browser script (quote-form.browser.ts) needs from content: the service
 * values (the schema accepts only those) with their plan prices, and the add-ons' tiers, for
 * the live estimate. The page embeds it as JSON (`<script type="application/json">`: a data
 * block, never executed, so the CSP has nothing to allow) and the script parses it.
 */
export const QUOTE_FORM_DATA_ID = "quote-form-data";

export type QuoteFormData = { services: EstimateServiceOption[]; addOns: EstimateAddOn[] };

/** Only what the estimate reads: names, prices, tiers (no ids, no descriptions). */
export function quoteFormData(serviceOptions: readonly QuoteServiceOption[], addOns: readonly AddOn[]): QuoteFormData {
  return {
    services: serviceOptions.map(({ value, plan }) => ({ value, plan: plan ? { price: plan.price } : null })),
    addOns: addOns.map(({ name, tiers }) => ({
      name,
      tiers: tiers.map(({ minDogs, monthlyAmount }) => ({ minDogs, monthlyAmount })),
    })),
  };
}

/** JSON that can sit inside a script element: `<` never closes it. */
export function serializeQuoteFormData(data: QuoteFormData): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
