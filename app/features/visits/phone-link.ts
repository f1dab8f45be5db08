import { formatPhone, phoneDigits } from "~/features/quotes/quote-schema";

export type PhoneLink = { href: string; label: string };

/**
 * A customer's number as a `tel:` link for the field (admins only): a US number, stored as E.164
 * ("+17025550123", the yard's mobile) or as typed on a quote ("(702) 555-0123"), dials as
 * "tel:+17025550123" and reads "(702) 555-0123"; anything else dials its digits as written.
 * Null when there is no number, so nothing is shown.
 */
export function phoneLink(phone: string | null | undefined): PhoneLink | null {
  const raw = phone?.trim();
  if (!raw) return null;
  const us = phoneDigits(raw);
  if (us) return { href: `tel:+1${us}`, label: formatPhone(us) };
  const dial = raw.replace(/[^\d+]/g, "");
  return /\d/.test(dial) ? { href: `tel:${dial}`, label: raw } : null;
}
