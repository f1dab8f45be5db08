/**
 * The quote form's browser script (decision 068): /contact ships no React. The server renders
 * the form, its errors and estimate (quote-form.tsx); this adds, with the server's own schema
 * and estimate code:
 *
 * - instant validation (`enhanceForm`): the same messages as the server's, on blur and then on
 *   every keystroke; a submit with errors posts nothing and focuses the first invalid field;
 *   a valid one marks the button busy ("Sending...");
 * - the live estimate, rewritten into #quote-estimate when the service or the dog count changes;
 * - on the success screen, focus on its heading, so that the news is heard.
 *
 * No React, no Remix: every import here must be browser-safe and small (zod, Conform's zod
 * helper, the estimate). A broken data block leaves the form as it is without JavaScript.
 */
import { enhanceForm, validateWithSchema } from "~/utils/form-enhancement";
import { estimateQuote } from "./quote-estimate";
import { quoteEstimateMarkup } from "./quote-estimate-markup";
import {
  QUOTE_ESTIMATE_ID,
  QUOTE_FORM_DATA_ID,
  QUOTE_FORM_ID,
  QUOTE_SENT_HEADING_ID,
  type QuoteFormData,
} from "./quote-form-data";
import { createQuoteSchema } from "./quote-schema";

function readData(): QuoteFormData | null {
  try {
    return JSON.parse(document.getElementById(QUOTE_FORM_DATA_ID)?.textContent ?? "") as QuoteFormData;
  } catch {
    return null;
  }
}

const form = document.getElementById(QUOTE_FORM_ID);
const data = readData();
if (form instanceof HTMLFormElement && data) {
  const schema = createQuoteSchema(data.services.map((service) => service.value));
  const estimateElement = document.getElementById(QUOTE_ESTIMATE_ID);
  const showEstimate = (formData: FormData) => {
    if (!estimateElement) return;
    const value = (name: string) => {
      const entry = formData.get(name);
      return typeof entry === "string" ? entry : null;
    };
    const markup = quoteEstimateMarkup(estimateQuote(data.services, data.addOns, value("service"), value("dogs")));
    // Written only when it changed: the live region speaks on every write.
    if (estimateElement.innerHTML !== markup) estimateElement.innerHTML = markup;
  };
  enhanceForm(form, { validate: validateWithSchema(schema), onChange: showEstimate });
  // Values the browser put back (history navigation, autofill before this ran) get their estimate.
  showEstimate(new FormData(form));
}

document.getElementById(QUOTE_SENT_HEADING_ID)?.focus();
