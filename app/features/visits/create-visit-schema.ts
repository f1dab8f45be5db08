import { z } from "zod";
import { VISIT_TYPES } from "./visit-constants";
import { parseBusinessDateTime } from "~/utils/business-time";

/**
 * The Create Service form's one schema: the action validates with it (Conform's parseWithZod)
 * and so does the browser, for instant messages. Client-safe.
 */
export const CREATE_SERVICE_MESSAGES = {
  customerRequired: "Select a customer",
  typeRequired: "Select a service type",
  dateRequired: "Enter the date and time",
  typeUnknown: "Select one of the listed service types",
  dateInvalid: "Enter a valid date and time",
  customerUnknown: "Select one of the listed customers",
  notesTooLong: "Notes can be at most 2000 characters",
} as const;

export const NOTES_MAX_LENGTH = 2000;

export const REQUIRED_SERVICE_FIELDS = {
  customerId: CREATE_SERVICE_MESSAGES.customerRequired,
  serviceType: CREATE_SERVICE_MESSAGES.typeRequired,
  serviceDate: CREATE_SERVICE_MESSAGES.dateRequired,
} as const;

const required = (message: string) => z.string({ required_error: message }).trim().min(1, message);

export const createVisitSchema = z.object({
  customerId: required(CREATE_SERVICE_MESSAGES.customerRequired),
  serviceType: required(CREATE_SERVICE_MESSAGES.typeRequired).pipe(
    z.enum(VISIT_TYPES, { errorMap: () => ({ message: CREATE_SERVICE_MESSAGES.typeUnknown }) }),
  ),
  serviceDate: required(CREATE_SERVICE_MESSAGES.dateRequired).transform((value, ctx) => {
    const instant = parseBusinessDateTime(value);
    if (!instant) {
      ctx.addIssue({ code: "custom", message: CREATE_SERVICE_MESSAGES.dateInvalid });
      return z.NEVER;
    }
    return instant;
  }),
  notes: z.string().trim().max(NOTES_MAX_LENGTH, CREATE_SERVICE_MESSAGES.notesTooLong).optional(),
});

/** The SPEC's toasts for this form. */
export const CREATE_SERVICE_TOASTS = {
  missing: { type: "error", message: "Missing Information", description: "Please fill in all required fields" },
  failed: { type: "error", message: "Error", description: "Failed to create service" },
} as const;

/** The required fields a submission's errors say are empty (the SPEC's "Missing Information"). */
export function missingVisitFields(errors: Record<string, string[] | null> | null | undefined) {
  return (Object.keys(REQUIRED_SERVICE_FIELDS) as (keyof typeof REQUIRED_SERVICE_FIELDS)[]).filter((field) =>
    errors?.[field]?.includes(REQUIRED_SERVICE_FIELDS[field]),
  );
}
