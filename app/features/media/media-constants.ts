/** Client-safe media words; the value lists live in db/enums.ts (docs/decisions/016). */
export { IMAGE_TYPES } from "../../../db/enums";
export type { ImageType } from "../../../db/enums";
