/** Client-safe quote words; the value lists live in db/enums.ts (docs/decisions/016). */
export { DOG_COUNTS, QUOTE_STATUSES, YARD_SIZES } from "../../../db/enums";
export type { DogCount, QuoteStatus, YardSize } from "../../../db/enums";

/** Why a request that became a customer has no status select (decision 099): page and refusal alike. */
export const STATUS_FIXED_MESSAGE = "This quote request has become a customer, so its status can no longer change.";
