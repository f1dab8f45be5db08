import { json, type ActionFunctionArgs } from "@remix-run/node";
import { receiveBookingWebhook } from "~/features/bookings/booking-webhook.server";

/** Cal.com booking webhooks (signed with X-Cal-Signature-256); see README "Connect your calendar". */
export async function loader() {
  return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  }
  return receiveBookingWebhook(request, "cal_com");
}
