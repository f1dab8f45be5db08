import { json, type ActionFunctionArgs } from "@remix-run/node";
import { receiveBookingWebhook } from "~/features/bookings/booking-webhook.server";

/** Calendly booking webhooks (signed with Calendly-Webhook-Signature); see README "Connect your calendar". */
export async function loader() {
  return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  }
  return receiveBookingWebhook(request, "calendly");
}
