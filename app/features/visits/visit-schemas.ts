import { z } from "zod";
import { HEALTH_FLAGS, MISSED_REASONS } from "./visit-constants";
import { parseBusinessDateTime } from "~/utils/business-time";

/** The visit page's forms (client-safe: the browser validates with them too). */
export const VISIT_MESSAGES = {
  reasonRequired: "Choose why the visit was missed",
  reasonTextRequired: "Say what happened",
  reasonTextTooLong: "At most 500 characters",
  dateRequired: "Enter the date and time",
  dateInvalid: "Enter a valid date and time",
  notesTooLong: "Notes can be at most 2000 characters",
} as const;

const dateTime = z
  .string({ required_error: VISIT_MESSAGES.dateRequired })
  .trim()
  .min(1, VISIT_MESSAGES.dateRequired)
  .transform((value, ctx) => {
    const instant = parseBusinessDateTime(value);
    if (!instant) {
      ctx.addIssue({ code: "custom", message: VISIT_MESSAGES.dateInvalid });
      return z.NEVER;
    }
    return instant;
  });

export const missSchema = z
  .object({
    reason: z.enum(MISSED_REASONS, { errorMap: () => ({ message: VISIT_MESSAGES.reasonRequired }) }),
    reasonText: z.string().trim().max(500, VISIT_MESSAGES.reasonTextTooLong).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.reason === "other" && !value.reasonText) {
      ctx.addIssue({ code: "custom", path: ["reasonText"], message: VISIT_MESSAGES.reasonTextRequired });
    }
  });

export const dateSchema = z.object({ serviceDate: dateTime });

export const notesSchema = z.object({
  notes: z.string().trim().max(2000, VISIT_MESSAGES.notesTooLong).optional(),
});

export const healthSchema = z.object({
  healthFlags: z
    .array(z.enum(HEALTH_FLAGS))
    .optional()
    .transform((flags) => [...new Set(flags ?? [])]),
  healthNote: z.string().trim().max(2000, VISIT_MESSAGES.notesTooLong).optional(),
});
