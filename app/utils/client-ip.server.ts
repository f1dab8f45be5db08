import { isIP } from "node:net";

/**
 * The visitor's address, for rate limits. Behind Fly the proxy sets Fly-Client-IP (clients
 * cannot forge it); elsewhere the first X-Forwarded-For entry is the best there is (forgeable,
 * which is why every limit is also kept per e-mail address). A value that is not an IP address
 * counts as "unknown" and never becomes part of a key.
 */
export function getClientIp(request: Request): string {
  const candidates = [request.headers.get("Fly-Client-IP"), request.headers.get("X-Forwarded-For")?.split(",")[0]];
  for (const candidate of candidates) {
    const ip = candidate?.trim();
    if (ip && isIP(ip)) return ip;
  }
  return "unknown";
}
