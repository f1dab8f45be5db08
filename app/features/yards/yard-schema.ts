import { z } from "zod";

/** The yard profile form's one schema (Conform + zod, server and browser). Client-safe. */
export const YARD_MESSAGES = {
  zip: "Enter a 5-digit ZIP code",
  dogCount: "Enter a number of dogs from 0 to 20",
  tooLong: (max: number) => `At most ${max} characters`,
  mobilePhone: "Enter a mobile number, like 702-555-0123 or +1 702 555 0123",
  textsNeedNumber: "Enter your mobile number to get texts",
} as const;

const text = (max: number) => z.string().trim().max(max, YARD_MESSAGES.tooLong(max)).optional();

export const yardSchema = z.object({
  street: text(200),
  city: text(100),
  zip: z
    .string()
    .trim()
    .regex(/^\d{5}$/, YARD_MESSAGES.zip)
    .optional(),
  gateCode: text(40),
  gateLocation: text(200),
  dogCount: z.coerce
    .number({ invalid_type_error: YARD_MESSAGES.dogCount })
    .int(YARD_MESSAGES.dogCount)
    .min(0, YARD_MESSAGES.dogCount)
    .max(20, YARD_MESSAGES.dogCount)
    .default(0),
  dogNames: text(300),
  looseDog: z.literal("on").optional(),
  hazards: text(1000),
  accessNotes: text(1000),
  notifyVisitEmails: z.literal("on").optional(),
  // Checked here for its characters only; the server checks it is a mobile number (E.164).
  mobilePhone: z
    .string()
    .trim()
    .regex(/^\+?[\d\s().-]{7,25}$/, YARD_MESSAGES.mobilePhone)
    .optional(),
  textVisits: z.literal("on").optional(),
});
export type YardInput = z.infer<typeof yardSchema>;

export const YARD_FIELDS = [
  "street",
  "city",
  "zip",
  "gateCode",
  "gateLocation",
  "dogCount",
  "dogNames",
  "looseDog",
  "hazards",
  "accessNotes",
  "notifyVisitEmails",
  "mobilePhone",
  "textVisits",
] as const;
