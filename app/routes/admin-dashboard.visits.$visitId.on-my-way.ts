import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff, requireVisitInReach } from "~/features/staff/staff-access.server";
import { handleOnMyWayPost } from "~/features/notices/on-my-way-action.server";

/** "On my way" (docs/decisions/097): a form's post only; back to Today or the visit with a toast. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "field");
  return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireVisitInReach(request, context, params.visitId ?? "");
  if (request.method !== "POST") {
    return json({ message: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  }
  return handleOnMyWayPost(request, params.visitId ?? "", admin.id);
}
