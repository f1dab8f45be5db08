import { z } from "zod";
import { DOG_COUNTS, YARD_SIZES } from "./quote-constants";

/**
 * The quote request form's one schema, used by the /contact action and, through Conform, by the
 * browser. No server imports: it ships to the browser. The field names are the form's names;
 * the model maps them onto quote_requests' columns.
 */

export const DOG_COUNT_OPTIONS: readonly { value: (typeof DOG_COUNTS)[number]; label: string }[] = [
  { value: "1", label: "1 dog" },
  { value: "2", label: "2 dogs" },
  { value: "3", label: "3 dogs" },
  { value: "4+", label: "4 or more dogs" },
];

// SPEC section 5: the yard size bands.
export const YARD_SIZE_OPTIONS: readonly { value: (typeof YARD_SIZES)[number]; label: string }[] = [
  { value: "small", label: "Small (under 2,000 sq ft)" },
  { value: "medium", label: "Medium (2,000–5,000 sq ft)" },
  { value: "large", label: "Large (over 5,000 sq ft)" },
];

export const dogCountLabel = (value: string) => DOG_COUNT_OPTIONS.find((o) => o.value === value)?.label ?? value;
export const yardSizeLabel = (value: string) => YARD_SIZE_OPTIONS.find((o) => o.value === value)?.label ?? value;

/** The table's CHECK limits; the form enforces them first so a visitor sees a message, not a 500. */
export const QUOTE_LIMITS = { name: 120, phone: 32, email: 254, address: 300, zip: 10, service: 60, message: 5000 };

/** Field order on the page: the first invalid one in this order gets focus. */
export const QUOTE_FIELDS = [
  "name",
  "phone",
  "email",
  "address",
  "zip",
  "dogs",
  "yardSize",
  "service",
  "message",
] as const;
export type QuoteField = (typeof QUOTE_FIELDS)[number];

/** The visually hidden field only bots fill in. */
export const HONEYPOT_FIELD = "website";

export const QUOTE_MESSAGES = {
  nameRequired: "Enter your name.",
  nameTooLong: `Keep your name under ${QUOTE_LIMITS.name} characters.`,
  phoneRequired: "Enter your phone number.",
  phoneInvalid: "Enter a 10-digit phone number, like 702-555-0123.",
  emailRequired: "Enter your e-mail address.",
  emailInvalid: "Enter a valid e-mail address, like name@example.com.",
  addressRequired: "Enter the street address of the property.",
  addressTooLong: `Keep the address under ${QUOTE_LIMITS.address} characters.`,
  zipRequired: "Enter the property's ZIP code.",
  zipInvalid: "Enter a 5-digit ZIP code, like 89048.",
  dogs: "Choose the number of dogs.",
  yardSize: "Choose the size of your yard.",
  serviceRequired: "Choose a service.",
  serviceUnknown: "Choose one of the listed services.",
  messageTooLong: `Keep your message under ${QUOTE_LIMITS.message} characters.`,
} as const;

/**
 * The 10 digits of a US phone number, or null. Punctuation people type (spaces, dots, dashes,
 * parentheses, a leading +) is ignored and a leading country code 1 is dropped; letters are not
 * accepted.
 */
export function phoneDigits(value: string): string | null {
  const trimmed = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  let digits = trimmed.replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  return digits.length === 10 ? digits : null;
}

/** "(702) 555-0123": one way of writing every stored number. */
export function formatPhone(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** One line, single spaces: also keeps line breaks out of e-mail headers. */
const singleLine = (value: string) => value.replace(/\s+/g, " ").trim();

const requiredText = (required: string) => z.string({ required_error: required, invalid_type_error: required });

/** Required text on one line. Checked in one transform: Conform's coercion would turn a piped "" into "Required". */
const oneLineText = (required: string, tooLong: string, max: number) =>
  requiredText(required).transform((value, ctx) => {
    const line = singleLine(value);
    if (!line) ctx.addIssue({ code: "custom", message: required });
    else if (line.length > max) ctx.addIssue({ code: "custom", message: tooLong });
    return line;
  });

/**
 * The schema. Given the service values offered by content, `service` must be one of them; the
 * browser and the server both pass the list they have, so they agree.
 */
export function createQuoteSchema(serviceValues?: readonly string[]) {
  const service = requiredText(QUOTE_MESSAGES.serviceRequired)
    .trim()
    .min(1, QUOTE_MESSAGES.serviceRequired)
    .superRefine((value, ctx) => {
      const wellFormed = value.length <= QUOTE_LIMITS.service && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
      if (!wellFormed || (serviceValues && !serviceValues.includes(value))) {
        ctx.addIssue({ code: "custom", message: QUOTE_MESSAGES.serviceUnknown });
      }
    });

  return z.object({
    name: oneLineText(QUOTE_MESSAGES.nameRequired, QUOTE_MESSAGES.nameTooLong, QUOTE_LIMITS.name),
    phone: requiredText(QUOTE_MESSAGES.phoneRequired)
      .max(QUOTE_LIMITS.phone, QUOTE_MESSAGES.phoneInvalid)
      .transform((value, ctx) => {
        const digits = phoneDigits(value);
        if (!digits) {
          ctx.addIssue({ code: "custom", message: QUOTE_MESSAGES.phoneInvalid });
          return z.NEVER;
        }
        return formatPhone(digits);
      }),
    email: requiredText(QUOTE_MESSAGES.emailRequired)
      .trim()
      .max(QUOTE_LIMITS.email, QUOTE_MESSAGES.emailInvalid)
      .email(QUOTE_MESSAGES.emailInvalid),
    address: oneLineText(QUOTE_MESSAGES.addressRequired, QUOTE_MESSAGES.addressTooLong, QUOTE_LIMITS.address),
    // ZIP+4 is accepted and stored as its five digits.
    zip: requiredText(QUOTE_MESSAGES.zipRequired)
      .trim()
      .regex(/^\d{5}(?:-\d{4})?$/, QUOTE_MESSAGES.zipInvalid)
      .transform((value) => value.slice(0, 5)),
    dogs: z.enum(DOG_COUNTS, { errorMap: () => ({ message: QUOTE_MESSAGES.dogs }) }),
    yardSize: z.enum(YARD_SIZES, { errorMap: () => ({ message: QUOTE_MESSAGES.yardSize }) }),
    service,
    message: z
      .string()
      .trim()
      .max(QUOTE_LIMITS.message, QUOTE_MESSAGES.messageTooLong)
      .optional()
      .transform((value) => (value ? value : undefined)),
  });
}

export type QuoteRequestInput = z.output<ReturnType<typeof createQuoteSchema>>;

/** The first field with an error, in page order: it gets autofocus when the page is rendered. */
export function firstInvalidField(errors: Record<string, unknown> | null | undefined): QuoteField | undefined {
  if (!errors) return undefined;
  return QUOTE_FIELDS.find((field) => {
    const messages = errors[field];
    return Array.isArray(messages) && messages.length > 0;
  });
}
