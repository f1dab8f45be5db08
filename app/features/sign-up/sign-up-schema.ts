import { z } from "zod";
import { YARD_SIZES } from "../../../db/enums";
import { MIN_PASSWORD_LENGTH } from "~/features/accounts/account-constants";

/**
 * The steps of /start and the schema of each step's form (Conform + zod, server and browser), and
 * of the answers kept server-side between them (docs/decisions/129). Client-safe.
 */

export const SIGN_UP_STEPS = ["zip", "yard", "plan", "days", "summary", "account"] as const;
export type SignUpStep = (typeof SIGN_UP_STEPS)[number];
/** Outside the area: the waitlist form instead of the steps. */
export type StartPage = SignUpStep | "waitlist" | "waitlisted" | "closed";

export const STEP_TITLES: Record<SignUpStep, string> = {
  zip: "Your ZIP code",
  yard: "Your yard",
  plan: "Your plan",
  days: "Your service days",
  summary: "Your summary",
  account: "Your account",
};

export const MAX_DOGS = 10;
const zip = z
  .string({ required_error: "Enter your 5-digit ZIP code" })
  .trim()
  .regex(/^\d{5}$/, "Enter your 5-digit ZIP code");
const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`).optional();

export const zipStepSchema = z.object({ zip });

export const waitlistSchema = z.object({
  zip,
  email: z
    .string({ required_error: "Enter your e-mail address" })
    .trim()
    .email("Enter a valid e-mail address")
    .max(320, "E-mail is too long"),
});

export const YARD_SIZE_LABELS: Record<(typeof YARD_SIZES)[number], string> = {
  small: "Small (under 1/8 acre)",
  medium: "Medium (1/8 to 1/4 acre)",
  large: "Large (over 1/4 acre)",
};

/** The yard step; `lastCleaned` must also be one of Sanity's answers (checked on the server). */
export const yardStepSchema = z.object({
  dogCount: z.coerce
    .number({ required_error: "How many dogs?", invalid_type_error: "How many dogs?" })
    .int("How many dogs?")
    .min(1, `From 1 to ${MAX_DOGS} dogs`)
    .max(MAX_DOGS, `From 1 to ${MAX_DOGS} dogs`),
  yardSize: z.enum(YARD_SIZES, { errorMap: () => ({ message: "Pick a yard size" }) }),
  lastCleaned: z
    .string({ required_error: "When was the yard last cleaned?" })
    .regex(/^[a-z0-9-]{1,40}$/, "When was the yard last cleaned?"),
  street: z
    .string({ required_error: "Enter your street address" })
    .trim()
    .min(3, "Enter your street address")
    .max(200, "At most 200 characters"),
  city: text(100),
  gateCode: text(40),
  hazards: text(1000),
});

export const planStepSchema = z.object({
  cataloguePlanId: z.string({ required_error: "Pick a plan" }).min(1, "Pick a plan").max(200),
});

export const daysStepSchema = z.object({
  weekdays: z.array(z.coerce.number().int().min(1).max(5), { required_error: "Pick your service days" }).max(5),
});

export const accountStepSchema = z.object({
  fullName: z
    .string({ required_error: "Full name is required" })
    .trim()
    .min(1, "Full name is required")
    .max(200, "Full name is too long"),
  email: z
    .string({ required_error: "Email is required" })
    .trim()
    .email("Enter a valid email address")
    .max(320, "Email is too long"),
  password: z
    .string({ required_error: "Password is required" })
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(1024, "Password is too long"),
  mobilePhone: z
    .string()
    .trim()
    .regex(/^\+?[\d\s().-]{7,25}$/, "Enter a mobile number, like 702-555-0123 or +1 702 555 0123")
    .optional(),
  textVisits: z.literal("on").optional(),
  agree: z.literal("on", { errorMap: () => ({ message: "Please accept the Terms to start your plan" }) }),
});

/** A signed-in customer continues without the name, e-mail and password fields. */
export const signedInAccountStepSchema = accountStepSchema.pick({ mobilePhone: true, textVisits: true, agree: true });

/** What is kept between the steps (the row's jsonb); anything else in it is dropped. */
export const signUpAnswersSchema = z.object({
  zip: z
    .string()
    .regex(/^\d{5}$/)
    .optional(),
  inArea: z.boolean().optional(),
  dogCount: z.number().int().min(1).max(MAX_DOGS).optional(),
  yardSize: z.enum(YARD_SIZES).optional(),
  lastCleaned: z.string().max(40).optional(),
  street: z.string().max(200).optional(),
  city: z.string().max(100).optional(),
  gateCode: z.string().max(40).optional(),
  hazards: z.string().max(1000).optional(),
  cataloguePlanId: z.string().max(200).optional(),
  weekdays: z.array(z.number().int().min(1).max(5)).max(5).optional(),
  waitlisted: z.boolean().optional(),
});
export type SignUpAnswers = z.infer<typeof signUpAnswersSchema>;

/**
 * The furthest step the answers reach: the first whose answers are missing (a later step's page
 * sends the visitor back to it), or the account once every answer is in.
 */
export function firstMissingStep(answers: SignUpAnswers): SignUpStep {
  if (!answers.zip || !answers.inArea) return "zip";
  if (!answers.dogCount || !answers.yardSize || !answers.lastCleaned || !answers.street) return "yard";
  if (!answers.cataloguePlanId) return "plan";
  if (!answers.weekdays || answers.weekdays.length === 0) return "days";
  return "account";
}

export function stepIndex(step: SignUpStep) {
  return SIGN_UP_STEPS.indexOf(step);
}
