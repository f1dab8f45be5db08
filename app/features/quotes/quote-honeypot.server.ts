import { HONEYPOT_FIELD } from "./quote-schema";

/**
 * True when a bot filled the field that only bots see (QuoteHoneypot in quote-form.tsx). There is
 * no signed "rendered at" token: the quote form is the same cached page for every visitor and must
 * post without a per-render value (and with JavaScript off). A post without the field is taken for
 * a person's, as remix-utils did.
 */
export function isHoneypotSpam(formData: FormData): boolean {
  const value = formData.get(HONEYPOT_FIELD);
  return value !== null && value !== "";
}
