import { json, type ActionFunctionArgs } from "@remix-run/node";
import { receiveStripeWebhook } from "~/features/billing/stripe-webhook.server";

/** Stripe's webhook (payments, cards, refunds, disputes); see README "Connecting Stripe". */
export async function loader() {
  return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  }
  return receiveStripeWebhook(request);
}
