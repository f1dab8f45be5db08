import type { ActionFunctionArgs } from "@remix-run/node";
import { handleOfflineChange } from "~/features/offline/offline-change.server";

// POST /resources/offline-change?service=<id>&intent=…&key=…&seen=…: one change the technician's
// phone queued without signal, sent when it came back (docs/decisions/127). JSON in and out of
// the queue's script; the page's own forms keep posting to the visit's page as before.
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  return handleOfflineChange(request, context);
}

export async function loader() {
  throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
