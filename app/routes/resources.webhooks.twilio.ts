import { json, type ActionFunctionArgs } from "@remix-run/node";
import { receiveTwilioWebhook } from "~/features/notices/text-webhook.server";

/** Twilio's inbound text webhook (STOP, START, HELP); see README "Text messages". */
export async function loader() {
  return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  }
  return receiveTwilioWebhook(request);
}
