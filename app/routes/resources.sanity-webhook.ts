import { json, type ActionFunctionArgs } from "@remix-run/node";
import { decodeSignatureHeader, isValidSignature, SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import { clearContentCache } from "~/content/content.server";
import { getEnv } from "~/utils/env.server";

/**
 * Sanity calls this after a publish (a GROQ-powered webhook with a secret). A valid signature
 * clears the content cache, so the edit shows on the next request.
 */

/** A signed call older than this is refused: a captured request cannot be replayed later. */
export const SIGNATURE_MAX_AGE_MS = 5 * 60 * 1000;

/** Whether the header's timestamp (milliseconds, as Sanity signs) is recent and not in the future. */
export function isFreshSignature(header: string, now = Date.now()) {
  try {
    const { timestamp } = decodeSignatureHeader(header);
    return Number.isFinite(timestamp) && Math.abs(now - timestamp) <= SIGNATURE_MAX_AGE_MS;
  } catch {
    return false;
  }
}

export async function loader() {
  return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  }
  const secret = getEnv().SANITY_WEBHOOK_SECRET;
  const signature = request.headers.get(SIGNATURE_HEADER_NAME);
  // Checked before the body is read: no signature, or an old one (a replay), reads nothing.
  if (!secret || !signature || !isFreshSignature(signature)) {
    return json({ message: "Invalid signature" }, { status: 401 });
  }
  // The signature covers the exact bytes sent, so read the body as text, never re-encoded JSON.
  const body = await request.text();
  if (!(await isValidSignature(body, signature, secret))) {
    return json({ message: "Invalid signature" }, { status: 401 });
  }
  clearContentCache();
  return json({ revalidated: true });
}
