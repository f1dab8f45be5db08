import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DayRoutes } from "~/features/route/day-routes-view";
import { dayOf, handleRoutesAction, loadRoutesPage, ROUTES_PATH } from "~/features/route/routes-page.server";
import { requireStaff } from "~/features/staff/staff-access.server";
import { STATIC_PAGE } from "~/utils/static-page";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";

// Plain forms and links: works with JavaScript off, ships no React (decision 076).
export const handle = STATIC_PAGE;

// The day's routes, one per technician (docs/decisions/126): owner and office (`visits`).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "visits");
  const day = dayOf(new URL(request.url));
  if (!day) {
    return redirectWithError(ROUTES_PATH, { message: "Error", description: "That is not a day (YYYY-MM-DD)" });
  }
  return json(await loadRoutesPage(day), { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context, "visits");
  const day = dayOf(new URL(request.url));
  if (!day) return json({ error: "That is not a day (YYYY-MM-DD)" }, { status: 400 });
  const back = `${ROUTES_PATH}?date=${day}`;
  const result = await handleRoutesAction(request, day, staff.id);
  if (!result.ok) {
    if (result.status === 413) return json({ error: result.description }, { status: 413 });
    return redirectWithError(back, { message: "Error", description: result.description });
  }
  return redirectWithSuccess(back, { message: "Success", description: result.description });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function Routes() {
  return <DayRoutes page={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction = () => [{ title: "Routes | Visits" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
