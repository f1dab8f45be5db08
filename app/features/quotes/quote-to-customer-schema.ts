import { z } from "zod";
import { checkCataloguePlan, day, planFields, type CataloguePlanOption } from "~/features/plans/admin-plan-schema";

/**
 * The quote page's "Create customer and plan" form (issue 25 item 6, decision 096): the account's
 * name and e-mail, the yard's address, and the plan's fields as the customer page's "Start plan"
 * has them. Client-safe: Conform checks the same schema in the browser.
 */
export const CREATE_CUSTOMER_INTENT = "create-customer";

export const CONVERSION_MESSAGES = {
  fullName: "Enter the customer's name",
  fullNameTooLong: "The name can be at most 120 characters",
  email: "Enter a valid e-mail address, like name@example.com",
  street: "Enter the street address (at most 200 characters)",
  city: "The city can be at most 100 characters",
  zip: "Enter a 5-digit ZIP code",
  character: "That character cannot be stored",
} as const;

const noNul = (value: string) => !value.includes("\u0000");

export function createCustomerSchema(catalogue: readonly CataloguePlanOption[]) {
  return z
    .object({
      fullName: z
        .string({ required_error: CONVERSION_MESSAGES.fullName })
        .trim()
        .min(1, CONVERSION_MESSAGES.fullName)
        .max(120, CONVERSION_MESSAGES.fullNameTooLong)
        .refine(noNul, CONVERSION_MESSAGES.character),
      email: z
        .string({ required_error: CONVERSION_MESSAGES.email })
        .trim()
        .max(254, CONVERSION_MESSAGES.email)
        .email(CONVERSION_MESSAGES.email),
      street: z
        .string({ required_error: CONVERSION_MESSAGES.street })
        .trim()
        .min(1, CONVERSION_MESSAGES.street)
        .max(200, CONVERSION_MESSAGES.street)
        .refine(noNul, CONVERSION_MESSAGES.character),
      city: z
        .string()
        .trim()
        .max(100, CONVERSION_MESSAGES.city)
        .refine(noNul, CONVERSION_MESSAGES.character)
        .optional(),
      zip: z
        .string({ required_error: CONVERSION_MESSAGES.zip })
        .trim()
        .regex(/^\d{5}$/, CONVERSION_MESSAGES.zip),
      ...planFields,
      startDate: day,
    })
    .superRefine(checkCataloguePlan(catalogue));
}
export type CreateCustomerInput = z.infer<ReturnType<typeof createCustomerSchema>>;

/** The form's first values, from the quote request (quote-to-customer.server.ts). */
export type CreateCustomerDefaults = {
  fullName: string;
  email: string;
  street: string;
  city: string;
  zip: string;
  cataloguePlanId: string;
  weekdays: string[];
  dogCount: string;
  yardSize: string;
  startDate: string;
  notes: string;
};
