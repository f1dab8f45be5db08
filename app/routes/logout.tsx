import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { destroySessionHeaders, getSession } from "~/utils/session.server";
import { redirectWithSuccess } from "~/utils/toast.server";

// Sign-out is a POST (a form in the nav and the dashboards), so it works without JavaScript
// and cannot be triggered by a link or an image on another site.
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  return redirectWithSuccess(
    "/",
    { message: "Signed out", description: "You've been logged out successfully." },
    { headers: await destroySessionHeaders(session) },
  );
}

export async function loader() {
  return redirect("/");
}
