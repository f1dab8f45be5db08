import { formatCents, parseCents } from "~/features/billing/money";

/**
 * The rules of a tip (docs/decisions/131), client-safe: integer cents, $1 to $500, the amounts the
 * owner offers (Sanity, whole dollars) or "Other" parsed strictly by the money parser (no
 * exponent, no third decimal, no sign, no zero).
 */
export const TIP_MIN_CENTS = 100;
export const TIP_MAX_CENTS = 50_000;
/** A pay period is two weeks from the owner's first day of one (Site settings > Billing). */
export const PAY_PERIOD_DAYS = 14;

export const TIP_RANGE_ERROR = `Enter a tip from ${formatCents(TIP_MIN_CENTS)} to ${formatCents(TIP_MAX_CENTS)}.`;
export const TIP_OTHER_ERROR = "Enter the tip in dollars and cents, for example 7 or 7.50.";
export const TIP_CHOICE_ERROR = "Choose a tip amount.";

/** The preset amounts in cents (the owner's whole dollars), within the bounds. */
export function tipPresets(amounts: readonly number[]): number[] {
  return [...new Set(amounts.map((dollars) => dollars * 100))].filter(
    (cents) => Number.isInteger(cents) && cents >= TIP_MIN_CENTS && cents <= TIP_MAX_CENTS,
  );
}

/**
 * The tip a form asks for: `choice` a preset's cents or "other", `other` the dollars typed. An
 * error to show for anything else; nothing is stored for it.
 */
export function parseTipForm(
  form: { choice: unknown; other: unknown },
  presets: readonly number[],
): { cents: number } | { error: string; field: "choice" | "other" } {
  const choice = typeof form.choice === "string" ? form.choice : "";
  if (choice === "other") {
    const text = typeof form.other === "string" ? form.other : "";
    if (text.trim() === "") return { error: TIP_OTHER_ERROR, field: "other" };
    const cents = parseCents(text);
    if (cents === null) return { error: TIP_OTHER_ERROR, field: "other" };
    if (cents < TIP_MIN_CENTS || cents > TIP_MAX_CENTS) return { error: TIP_RANGE_ERROR, field: "other" };
    return { cents };
  }
  if (!/^\d{1,6}$/.test(choice)) return { error: TIP_CHOICE_ERROR, field: "choice" };
  const cents = Number(choice);
  if (!presets.includes(cents)) return { error: TIP_CHOICE_ERROR, field: "choice" };
  return { cents };
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The pay period holding `day`: two weeks from `anchor`, or one a whole number of periods from it. */
export function payPeriodOf(day: string, anchor: string): { start: string; end: string } {
  const offset = Math.floor((dayNumber(day) - dayNumber(anchor)) / PAY_PERIOD_DAYS) * PAY_PERIOD_DAYS;
  const start = dayNumber(anchor) + offset;
  return { start: dayOf(start), end: dayOf(start + PAY_PERIOD_DAYS - 1) };
}

/** The first day of the period `count - 1` periods before the one holding `day`. */
export function firstOfPeriods(day: string, anchor: string, count: number): string {
  return dayOf(dayNumber(payPeriodOf(day, anchor).start) - (count - 1) * PAY_PERIOD_DAYS);
}

/** "Tip for Ana, visit Mar 4, 2028": the invoice line (the technician's first name only). */
export function tipLineDescription(technicianName: string, visitDate: string): string {
  const first = technicianName.trim().split(/\s+/)[0] || "your technician";
  return `Tip for ${first.includes("@") ? "your technician" : first}, visit ${visitDate}`.slice(0, 300);
}
