const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs and forms; PostgreSQL rejects a malformed uuid with an error, not a miss. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
