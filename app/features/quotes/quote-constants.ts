/** Client-safe quote lists; their one home (see visits/visit-constants.ts for the rule). */
export const QUOTE_STATUSES = ["new", "contacted", "won", "lost"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const DOG_COUNTS = ["1", "2", "3", "4+"] as const;
export type DogCount = (typeof DOG_COUNTS)[number];

export const YARD_SIZES = ["small", "medium", "large"] as const;
export type YardSize = (typeof YARD_SIZES)[number];
