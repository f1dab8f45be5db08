import { z } from "zod";
import { isCalendarDay } from "~/features/visits/visit-dates";

/**
 * The forms of "Your Plan" (client-safe: with JavaScript the browser checks the pause dates with
 * the same schema). Every form names its `intent`; the server trusts nothing else it sends.
 */
export const PLAN_INTENTS = ["skip", "undo-skip", "pause", "resume", "cancel"] as const;
export type PlanIntent = (typeof PLAN_INTENTS)[number];

export const isPlanIntent = (value: unknown): value is PlanIntent =>
  typeof value === "string" && (PLAN_INTENTS as readonly string[]).includes(value);

/** The refusals the page words itself; the workflow's own messages are shown as they are. */
export const PLAN_MESSAGES = {
  visitRequired: "Choose a visit to change.",
  planRequired: "We could not find that plan.",
  fromRequired: "From: enter a date.",
  untilRequired: "Until: enter a date.",
  fromPast: "From cannot be in the past.",
  fromTooLate: "From must be within a year from today.",
  untilBeforeFrom: "Until must be on or after From.",
  tooLong: (days: number) => `A pause can last at most ${days} days.`,
  unknownIntent: "That form could not be read. Reload the page and try again.",
} as const;

export const visitChangeSchema = z.object({
  visitId: z
    .string({ required_error: PLAN_MESSAGES.visitRequired })
    .trim()
    .min(1, PLAN_MESSAGES.visitRequired)
    .max(100, PLAN_MESSAGES.visitRequired),
});

export const planChangeSchema = z.object({
  planId: z
    .string({ required_error: PLAN_MESSAGES.planRequired })
    .trim()
    .min(1, PLAN_MESSAGES.planRequired)
    .max(100, PLAN_MESSAGES.planRequired),
});

/** What the pause form's limits depend on: today (business time) and the owner's longest pause. */
export type PauseLimits = { today: string; latestFrom: string; longestPauseDays: number };

/** Days from `from` to `until`, both counted. */
export function daysInclusive(from: string, until: string): number {
  return Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The day `days` after `day`. */
export function dayPlus(day: string, days: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

// A day that is not real stops there (fatal): the limits after it would only repeat the refusal.
const day = (required: string) =>
  z
    .string({ required_error: required })
    .trim()
    .superRefine((value, ctx) => {
      if (!isCalendarDay(value)) ctx.addIssue({ code: "custom", message: required, fatal: true });
    });

/**
 * "Pause service": From and Until, from today on, at most the longest pause (the same rules
 * and words as pausePlan, so the browser and the server refuse alike).
 */
export function pauseSchema(limits: PauseLimits) {
  return planChangeSchema
    .extend({
      from: day(PLAN_MESSAGES.fromRequired)
        .refine((value) => value >= limits.today, PLAN_MESSAGES.fromPast)
        .refine((value) => value <= limits.latestFrom, PLAN_MESSAGES.fromTooLate),
      until: day(PLAN_MESSAGES.untilRequired),
    })
    .superRefine((value, ctx) => {
      // Runs after a field's own refusal too: compare only two real days.
      if (!isCalendarDay(value.from) || !isCalendarDay(value.until)) return;
      if (value.until < value.from) {
        ctx.addIssue({ code: "custom", path: ["until"], message: PLAN_MESSAGES.untilBeforeFrom });
      } else if (daysInclusive(value.from, value.until) > limits.longestPauseDays) {
        ctx.addIssue({ code: "custom", path: ["until"], message: PLAN_MESSAGES.tooLong(limits.longestPauseDays) });
      }
    });
}
