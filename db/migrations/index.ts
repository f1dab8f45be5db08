import type { Migration } from "kysely";
import * as initial from "./0001-initial";
import * as bookings from "./0004-bookings";

/**
 * Every migration, in order. A static map (not a folder scan) so that the same list works in
 * the bundled server build, in tsx scripts and in tests. Add new files here with the next number.
 */
export const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0004-bookings": bookings,
};
