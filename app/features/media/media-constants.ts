/** Client-safe media lists and limits; their one home (see visits/visit-constants.ts). */
export const IMAGE_TYPES = ["before", "after"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
