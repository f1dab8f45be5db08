/**
 * Money as people type and read it, in integer cents (docs/decisions/102). No floats: the text is
 * parsed digit by digit, so "12.50" is 1250 and never 1249.9999. Client-safe (the forms check
 * amounts in the browser with the same function).
 */

/** The largest amount a form accepts: $1,000,000.00 (the tables' CHECKs allow no more). */
export const MAX_AMOUNT_CENTS = 100_000_000;

const AMOUNT = /^\$?\s*(\d{1,9})(?:\.(\d{1,2}))?$/;

/**
 * "12.50" → 1250, "12" → 1200, "$7.5" → 750, "1,250.00" → 125000. Null for anything else: a
 * third decimal ("12.505"), a sign, an exponent, zero, or more than MAX_AMOUNT_CENTS.
 */
export function parseCents(text: string): number | null {
  const cleaned = text.trim().replace(/,(?=\d{3}(?:\D|$))/g, "");
  const match = AMOUNT.exec(cleaned);
  if (!match) return null;
  const dollars = Number(match[1]);
  const cents = Number((match[2] ?? "").padEnd(2, "0"));
  const total = dollars * 100 + cents;
  if (total <= 0 || total > MAX_AMOUNT_CENTS) return null;
  return total;
}

/** 1250 → "$12.50", -2054 → "−$20.54" (a real minus sign, read as "minus" by screen readers). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "−" : "";
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/** 1250 → "12.50": the value a form field starts with. */
export function centsToInput(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
