import { z } from "zod";
import { isCalendarDay } from "~/features/visits/visit-dates";
import { YARD_SIZES } from "../../../db/enums";

/**
 * The forms of the Plan section on the admin's customer page (issue 25 item 5), told apart by
 * `intent` in the page's one action. Client-safe: Conform checks the same schemas in the browser.
 * The workflow (plan-changes.server.ts) checks everything again; these give each field its
 * message before it is called.
 */
export const ADMIN_PLAN_INTENTS = ["start-plan", "change-plan", "pause-plan", "resume-plan", "cancel-plan"] as const;
export type AdminPlanIntent = (typeof ADMIN_PLAN_INTENTS)[number];

export function isAdminPlanIntent(value: unknown): value is AdminPlanIntent {
  return (ADMIN_PLAN_INTENTS as readonly unknown[]).includes(value);
}

/** The success toast of each intent (issue 25's words). */
export const ADMIN_PLAN_TOASTS: Record<AdminPlanIntent, { message: string; description: string }> = {
  "start-plan": { message: "Success", description: "Plan started" },
  "change-plan": { message: "Success", description: "Plan changed" },
  "pause-plan": { message: "Success", description: "Service paused" },
  "resume-plan": { message: "Success", description: "Service resumed" },
  "cancel-plan": { message: "Success", description: "Plan cancelled" },
};

export const MAX_PLAN_DOGS = 20;
export const PLAN_NOTES_MAX_LENGTH = 1000;

export const PLAN_MESSAGES = {
  cataloguePlan: "Choose a plan",
  weekdays: "Choose the service days, Monday to Friday",
  dogs: `Dogs: a whole number from 1 to ${MAX_PLAN_DOGS}`,
  yardSize: "Choose a yard size",
  date: "Enter a date",
  untilBeforeFrom: "Until must be on or after From",
  notes: `Notes can be at most ${PLAN_NOTES_MAX_LENGTH} characters`,
  notesCharacter: "Notes cannot contain that character",
  plan: "We could not find that plan.",
} as const;

/** A catalogue plan as the forms know it: its Sanity id, name and visits a week (null: one-time). */
export type CataloguePlanOption = { id: string; name: string; visitsPerWeek: number | null };

export const day = z.string({ required_error: PLAN_MESSAGES.date }).trim().refine(isCalendarDay, PLAN_MESSAGES.date);

const planId = z.string({ required_error: PLAN_MESSAGES.plan }).trim().max(100, PLAN_MESSAGES.plan);

/** The fields every form that starts or changes a plan has (also a quote's "Create customer and plan"). */
export const planFields = {
  cataloguePlanId: z.string({ required_error: PLAN_MESSAGES.cataloguePlan }).trim().max(200),
  // One message for the whole group, on the fieldset: checked, each day at most once, Monday to Friday.
  weekdays: z.array(z.unknown()).transform((values, ctx) => {
    const days = values.map((value) => (typeof value === "string" && /^[1-5]$/.test(value) ? Number(value) : NaN));
    if (days.length === 0 || days.some((day) => Number.isNaN(day)) || new Set(days).size !== days.length) {
      ctx.addIssue({ code: "custom", message: PLAN_MESSAGES.weekdays });
      return z.NEVER;
    }
    return days;
  }),
  dogCount: z
    .number({ required_error: PLAN_MESSAGES.dogs, invalid_type_error: PLAN_MESSAGES.dogs })
    .int(PLAN_MESSAGES.dogs)
    .min(1, PLAN_MESSAGES.dogs)
    .max(MAX_PLAN_DOGS, PLAN_MESSAGES.dogs),
  yardSize: z.enum(YARD_SIZES, { errorMap: () => ({ message: PLAN_MESSAGES.yardSize }) }),
  notes: z
    .string()
    .trim()
    .max(PLAN_NOTES_MAX_LENGTH, PLAN_MESSAGES.notes)
    // PostgreSQL text cannot hold NUL: refused here, never a 500.
    .refine((value) => !value.includes("\u0000"), PLAN_MESSAGES.notesCharacter)
    .optional(),
};

/**
 * The catalogue plan must exist, be a subscription, and get as many service days as its visits
 * a week: the workflow's own words, on the field that is wrong.
 */
export function checkCataloguePlan(catalogue: readonly CataloguePlanOption[]) {
  return (value: { cataloguePlanId: string; weekdays: number[] }, ctx: z.RefinementCtx) => {
    // A field already refused (zod runs this on a value another check has marked) says enough.
    if (!Array.isArray(value.weekdays) || typeof value.cataloguePlanId !== "string") return;
    const plan = catalogue.find((option) => option.id === value.cataloguePlanId);
    if (!plan) {
      ctx.addIssue({ code: "custom", path: ["cataloguePlanId"], message: PLAN_MESSAGES.cataloguePlan });
      return;
    }
    if (plan.visitsPerWeek === null) {
      ctx.addIssue({
        code: "custom",
        path: ["cataloguePlanId"],
        message: `${plan.name} is a one-time visit: pick a subscription plan.`,
      });
      return;
    }
    if (value.weekdays.length !== plan.visitsPerWeek) {
      const count = plan.visitsPerWeek === 1 ? "1 service day" : `${plan.visitsPerWeek} service days`;
      ctx.addIssue({
        code: "custom",
        path: ["weekdays"],
        message: `${plan.name} has ${plan.visitsPerWeek} visit${plan.visitsPerWeek === 1 ? "" : "s"} a week: pick ${count}.`,
      });
    }
  };
}

export function startPlanSchema(catalogue: readonly CataloguePlanOption[]) {
  return z.object({ ...planFields, startDate: day }).superRefine(checkCataloguePlan(catalogue));
}

export function changePlanSchema(catalogue: readonly CataloguePlanOption[]) {
  return z.object({ ...planFields, planId, fromDate: day }).superRefine(checkCataloguePlan(catalogue));
}

export const pausePlanSchema = z
  .object({ planId, from: day, until: day })
  .refine((value) => value.until >= value.from, { path: ["until"], message: PLAN_MESSAGES.untilBeforeFrom });

/** Resume and Cancel post the plan's id only. */
export const planIdSchema = z.object({ planId });
