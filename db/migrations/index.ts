import type { Migration } from "kysely";
import * as initial from "./0001-initial";
import * as visits from "./0003-visits";

/**
 * Every migration, in order. A static map (not a folder scan) so that the same list works in
 * the bundled server build, in tsx scripts and in tests. Add new files here with the next number.
 */
export const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  // 0002 is reserved for a parallel branch (bookings/accounts); Kysely orders by name.
  "0003-visits": visits,
};
