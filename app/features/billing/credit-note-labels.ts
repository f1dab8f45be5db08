import type { CreditNoteReason } from "../../../db/enums";

/** Why a credit note gives money back, in the customer's words. */
export const CREDIT_NOTE_REASON_LABELS: Record<CreditNoteReason, string> = {
  refund: "Refund",
  cancellation: "Cancellation with notice",
  business_cancelled: "Visits we cancelled",
  weather: "Visits missed for weather",
  plan_hold: "Service on hold",
  goodwill: "Goodwill credit",
  invoice_void: "Credits of a voided invoice",
};

/** How a credit note's money came back: paid out as a refund, or kept as credit on file. */
export const paidOutLabel = (paidOut: string) => (paidOut === "refund" ? "Refunded" : "Credit on file");
