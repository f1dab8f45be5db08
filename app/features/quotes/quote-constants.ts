/** Client-safe quote words; the value lists live in db/enums.ts (docs/decisions/016). */
export { DOG_COUNTS, QUOTE_STATUSES, YARD_SIZES } from "../../../db/enums";
export type { DogCount, QuoteStatus, YardSize } from "../../../db/enums";
