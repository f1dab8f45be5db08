import { z } from "zod";
import { isCalendarDay } from "~/features/visits/visit-dates";
import { MAX_AMOUNT_CENTS, parseCents } from "./money";
import type { InvoiceStatus, PaymentMethod } from "../../../db/enums";

/**
 * The admin invoice page's forms ("Record payment", "Refund", "Void", "Mark uncollectible"), told
 * apart by `intent`.
 * Client-safe: Conform checks the same schemas in the browser; the workflow checks again.
 */
export const INVOICE_INTENTS = [
  "record-payment",
  "refund",
  "reverse-payment",
  "void",
  "uncollectible",
  "charge-card",
  "reissue",
] as const;
export type InvoiceIntent = (typeof INVOICE_INTENTS)[number];
export const isInvoiceIntent = (value: unknown): value is InvoiceIntent =>
  (INVOICE_INTENTS as readonly unknown[]).includes(value);

/** The methods an admin records by hand (Stripe's payments arrive by webhook). */
export const MANUAL_METHODS = ["cash", "check", "card_in_person", "other"] as const satisfies readonly PaymentMethod[];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: "Cash",
  check: "Check",
  card_in_person: "Card in person",
  other: "Other",
  stripe: "Card (Stripe)",
};

export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: "Draft",
  open: "Open",
  paid: "Paid",
  void: "Void",
  uncollectible: "Uncollectible",
};

export const NOTE_MAX_LENGTH = 500;

export const BILLING_MESSAGES = {
  method: "Choose how it was paid",
  amount: `Enter an amount in dollars and cents, e.g. 12.50 (at most $${(MAX_AMOUNT_CENTS / 100).toLocaleString("en-US")})`,
  date: "Enter a date",
  note: `The note can be at most ${NOTE_MAX_LENGTH} characters`,
  form: "This form has expired. Please reload the page.",
  payment: "We could not find that payment.",
} as const;

const amount = z
  .string({ required_error: BILLING_MESSAGES.amount })
  .max(20, BILLING_MESSAGES.amount)
  .refine((text) => parseCents(text) !== null, BILLING_MESSAGES.amount)
  .transform((text) => parseCents(text)!);
const note = z.string().trim().max(NOTE_MAX_LENGTH, BILLING_MESSAGES.note).optional();
const key = z.string({ required_error: BILLING_MESSAGES.form }).uuid(BILLING_MESSAGES.form);
const day = z.string({ required_error: BILLING_MESSAGES.date }).trim().refine(isCalendarDay, BILLING_MESSAGES.date);

export const recordPaymentSchema = z.object({
  method: z.enum(MANUAL_METHODS, { errorMap: () => ({ message: BILLING_MESSAGES.method }) }),
  amount,
  paidOn: day,
  note,
  key,
});

export const refundSchema = z.object({
  paymentId: z.string({ required_error: BILLING_MESSAGES.payment }).uuid(BILLING_MESSAGES.payment),
  amount,
  note,
  key,
});
