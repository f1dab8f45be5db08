/**
 * Whether an error means "the database cannot be reached right now" (refused, reset, timed
 * out, shutting down, out of connections) rather than a bug: such requests get a 503 page
 * that asks the visitor to try again, and the pool reconnects on its own.
 */

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "EAI_AGAIN",
]);
// PostgreSQL: admin/crash shutdown, cannot connect now, too many connections; class 08 = connection exception.
const POSTGRES_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Connection refused|Client has encountered a connection error|connect ECONNREFUSED/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code) || /^08/.test(code)))
    return true;
  if (typeof message === "string" && MESSAGES.test(message)) return true;
  if (cause && isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}

export const UNAVAILABLE_MESSAGE = "We're having trouble right now. Please try again in a moment.";
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
