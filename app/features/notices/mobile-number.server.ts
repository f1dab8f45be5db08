import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";

/**
 * A typed number as E.164 ("+17025550123") when it is a valid mobile number, US by default, or
 * null. The "mobile" metadata of libphonenumber-js knows only the ranges that can be mobile (in
 * the US and Canada those are every geographic range: mobile and landline numbers share them).
 * Server only: the metadata is 100 KB, the browser checks only the characters (yard-schema.ts).
 */
export function toMobileE164(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value.trim(), "US");
  if (!parsed || !parsed.isValid()) return null;
  const type = parsed.getType();
  if (type !== undefined && type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE") return null;
  return parsed.number;
}
