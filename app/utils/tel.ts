/**
 * A `tel:` link for a phone number as people write it: "(702) 555-0100" → "tel:+17025550100".
 * North American numbers (10 digits, or 11 starting with 1) get the +1 country code so that
 * phones abroad dial them right; anything else keeps its digits (and a leading +) as written.
 */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  if (digits.length === 10) return `tel:+1${digits}`;
  if (digits.length === 11 && digits.startsWith("1")) return `tel:+${digits}`;
  return `tel:${phone.trim().startsWith("+") ? "+" : ""}${digits}`;
}
