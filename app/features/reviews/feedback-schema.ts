import { z } from "zod";

/** The longest private note (the column's CHECK says the same: migration 0049). */
export const FEEDBACK_MAX_LENGTH = 2000;

export const feedbackSchema = z.object({
  message: z
    .string({ required_error: "Tell us what we could do better" })
    .trim()
    .min(1, "Tell us what we could do better")
    .max(FEEDBACK_MAX_LENGTH, `Keep it under ${FEEDBACK_MAX_LENGTH} characters`),
});
