/**
 * The page a visitor was sent away from to sign in, carried as `?redirectTo=` through /auth and
 * /auth/verify and back. Only a path on this site is taken: a full URL, a protocol-relative
 * `//host` or `/\host` (which browsers read as `//host`), control characters or an overlong value
 * would make the sign-in page an open redirect, so they count as no return path at all.
 */
export const RETURN_PARAM = "redirectTo";
const MAX_LENGTH = 1000;

export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  // The sign-in pages themselves are never a destination (a loop, or a stale challenge).
  if (value === "/auth" || value.startsWith("/auth/") || value.startsWith("/auth?")) return null;
  return value;
}

/** `path` with `?redirectTo=` for a return path (none when it is not a safe one). */
export function withReturnPath(path: string, returnPath: unknown): string {
  const safe = safeReturnPath(returnPath);
  if (!safe) return path;
  const separator = path.includes("?") ? "&" : "?";
  return `${path}${separator}${RETURN_PARAM}=${encodeURIComponent(safe)}`;
}

/** The return path a request's URL carries, if it is a safe one. */
export function returnPathOf(request: Request): string | null {
  return safeReturnPath(new URL(request.url).searchParams.get(RETURN_PARAM));
}
