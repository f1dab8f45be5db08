import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { HONEYPOT_FIELD } from "./quote-schema";

// remix-utils' honeypot: a field people never see. Its encrypted "valid from" timestamp is
// switched off: the quote form is the same cached page for every visitor and must post
// without a per-render token (and with JavaScript off).
const honeypot = new Honeypot({ nameFieldName: HONEYPOT_FIELD, validFromFieldName: null });

/** True when a bot filled the field that only bots see. */
export function isHoneypotSpam(formData: FormData): boolean {
  try {
    honeypot.check(formData);
    return false;
  } catch (error) {
    if (error instanceof SpamError) return true;
    throw error;
  }
}
