/**
 * The quote form's fixed choices (SPEC section 2 and 5). The service choices are content
 * (quoteServiceOption documents); these two are part of the form itself.
 */
export const DOG_COUNT_OPTIONS = [
  { value: "1", label: "1 dog", dogs: 1 },
  { value: "2", label: "2 dogs", dogs: 2 },
  { value: "3", label: "3 dogs", dogs: 3 },
  { value: "4+", label: "4 or more dogs", dogs: 4 },
] as const;

export const YARD_SIZE_OPTIONS = [
  { value: "small", label: "Small (under 2,000 sq ft)" },
  { value: "medium", label: "Medium (2,000–5,000 sq ft)" },
  { value: "large", label: "Large (over 5,000 sq ft)" },
] as const;

export const QUOTE_FIELD_NAMES = [
  "name",
  "phone",
  "email",
  "address",
  "dogs",
  "yardSize",
  "service",
  "message",
] as const;

export type QuoteFieldName = (typeof QUOTE_FIELD_NAMES)[number];

/** "4+" counts as 4 for the estimate; anything else that is not a listed choice is null. */
export function dogCountFrom(value: string): number | null {
  return DOG_COUNT_OPTIONS.find((option) => option.value === value)?.dogs ?? null;
}
