import { isIP } from "node:net";
import { getEnv } from "./env.server";

/** What the request context must carry: the TCP peer that server.js passes (or nothing). */
type PeerContext = { clientAddress?: unknown };

/**
 * The key of every per-client limit (sign-in, sign-up, Google/Facebook starts, quote form,
 * resend, reset, second step): the visitor's IPv4 address, or the /64 network of an IPv6 one
 * ("2001:db8:1:2::/64"). One IPv6 host usually holds a whole /64 and can rotate through it, so
 * the /64 is the client. The request context is required: without its TCP peer every client
 * not behind a trusted proxy would share one key.
 */
export function getClientKey(request: Request, context: PeerContext): string {
  const ip = getClientIp(request, context);
  return ip.includes(":") ? ipv6Network64(ip) : ip;
}

/** "2001:DB8:1:2:3::1" -> "2001:db8:1:2::/64" (the first four groups, each without leading zeros). */
export function ipv6Network64(ip: string): string {
  const [left, right = null] = ip.split("%", 1)[0].split("::");
  const head = left ? left.split(":") : [];
  const tail = right === null ? [] : right ? right.split(":") : [];
  const groups =
    right === null ? head : [...head, ...Array(Math.max(0, 8 - head.length - tail.length)).fill("0"), ...tail];
  const network = groups
    .slice(0, 4)
    .map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? parseInt(group, 16).toString(16) : "0"));
  while (network.length < 4) network.push("0");
  return `${network.join(":")}::/64`;
}

/**
 * The visitor's address. Headers are believed only where something trustworthy set them:
 * - on Fly (FLY_APP_NAME is set), Fly-Client-IP, which Fly's proxy always overwrites;
 * - behind TRUST_PROXY=n proxies, the n-th X-Forwarded-For entry from the right (each proxy
 *   appends the address it saw, so entries further left are whatever the client wrote);
 * - else the TCP peer that server.js passes in the load context.
 * A header that is missing or not an address falls through to the peer. "unknown" only when
 * there is no connection at all (a route called directly, as unit tests do).
 */
function getClientIp(request: Request, context: PeerContext): string {
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
  return asIp(typeof context.clientAddress === "string" ? context.clientAddress : null) ?? "unknown";
}

function asIp(value: string | null | undefined): string | null {
  const candidate = value?.trim();
  if (!candidate || !isIP(candidate)) return null;
  // Node reports IPv4 peers on a dual-stack socket as ::ffff:a.b.c.d; one client, one key.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(candidate);
  return mapped ? mapped[1] : candidate.toLowerCase();
}
