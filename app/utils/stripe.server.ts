import type Stripe from "stripe";
import { getEnv } from "./env.server";

/** Card payments go through Stripe only when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set. */
export function isStripeConfigured(): boolean {
  const env = getEnv();
  return Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET);
}

export type { Stripe };

type Cached = { key: string; client: Stripe };
let cached: Cached | undefined;

/**
 * The stripe package's client, made on first use only (a machine without Stripe never loads the
 * package). With STRIPE_API_BASE_URL (tests only) the package's own host/port/protocol options
 * send every call to that origin instead of https://api.stripe.com: the requests are unchanged.
 */
export async function stripeClient(): Promise<Stripe> {
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY) throw new Error("Stripe is not configured");
  const key = [env.STRIPE_SECRET_KEY, env.STRIPE_API_BASE_URL ?? ""].join("|");
  if (cached?.key === key) return cached.client;
  const { default: StripeClass } = await import("stripe");
  const base = env.STRIPE_API_BASE_URL ? new URL(env.STRIPE_API_BASE_URL) : undefined;
  const made = new StripeClass(env.STRIPE_SECRET_KEY, {
    // A page or a job waiting on Stripe gives up after 10 s; the idempotency key makes a retry safe.
    timeout: 10_000,
    maxNetworkRetries: 1,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol === "https:" ? ("https" as const) : ("http" as const),
        }
      : {}),
  });
  cached = { key, client: made };
  return made;
}

/**
 * A webhook's event, checked by the package against STRIPE_WEBHOOK_SECRET over the raw body;
 * throws (the package's StripeSignatureVerificationError) when the signature does not match.
 */
export async function verifyStripeEvent(body: Uint8Array, signature: string): Promise<Stripe.Event> {
  const secret = getEnv().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new Error("Stripe is not configured");
  const { default: StripeClass } = await import("stripe");
  return StripeClass.webhooks.constructEvent(Buffer.from(body), signature, secret);
}
