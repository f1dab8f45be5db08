import { isIP } from "node:net";
import type { AppLoadContext } from "@remix-run/node";
import { getEnv } from "./env.server";

/**
 * The visitor's address, the one key of every per-client limit (sign-in, sign-up, quote form,
 * resend, reset). Headers are believed only where something trustworthy set them:
 * - on Fly (FLY_APP_NAME is set), Fly-Client-IP, which Fly's proxy always overwrites;
 * - behind TRUST_PROXY=n proxies, the n-th X-Forwarded-For entry from the right (each proxy
 *   appends the address it saw, so entries further left are whatever the client wrote);
 * - else the TCP peer that server.js passes in the load context.
 * A header that is missing or not an address falls through to the peer. "unknown" only when
 * there is no connection at all (a route called directly, as unit tests do).
 */
export function getClientIp(request: Request, context?: Pick<AppLoadContext, "clientAddress">): string {
  const env = getEnv();
  if (env.FLY_APP_NAME) {
    const fly = asIp(request.headers.get("Fly-Client-IP"));
    if (fly) return fly;
  }
  if (env.TRUST_PROXY > 0) {
    const entries = (request.headers.get("X-Forwarded-For") ?? "").split(",").map((entry) => entry.trim());
    const forwarded = entries.length >= env.TRUST_PROXY ? asIp(entries[entries.length - env.TRUST_PROXY]) : null;
    if (forwarded) return forwarded;
  }
  return asIp(context?.clientAddress) ?? "unknown";
}

function asIp(value: string | null | undefined): string | null {
  const candidate = value?.trim();
  if (!candidate || !isIP(candidate)) return null;
  // Node reports IPv4 peers on a dual-stack socket as ::ffff:a.b.c.d; one client, one key.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(candidate);
  return mapped ? mapped[1] : candidate.toLowerCase();
}
