import type { ActionFunctionArgs } from "@remix-run/node";
import { requireVisitInReach } from "~/features/staff/staff-access.server";
import { discardRequestBody, handleMediaUpload } from "~/features/media/upload-media.server";

// POST /resources/media-upload?service=<id>: the before/after upload forms post here, with or
// without JavaScript. A resource route, so that the form's script gets the JSON it asks for
// rather than the dashboard's HTML document.
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  // The visit is in the form's URL (?service=): a technician uploads only to a visit of theirs.
  const visitId = new URL(request.url).searchParams.get("service") ?? "";
  const admin = await requireVisitInReach(request, context, visitId).catch(async (refusal: unknown) => {
    // A refused upload is still being sent: read it off so the browser gets the redirect.
    await discardRequestBody(request);
    throw refusal;
  });
  return handleMediaUpload(request, admin.id);
}

export async function loader() {
  throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
