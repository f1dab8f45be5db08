import type { OnMyWayReturn } from "./on-my-way-paths";
import { formatBusinessClock, sendOnMyWay } from "./on-my-way.server";
import { visitPath } from "~/features/visits/visit-paths";
import { redirectWithError, redirectWithInfo, redirectWithSuccess } from "~/utils/toast.server";

const MAX_FORM_BYTES = 4 * 1024;
const TODAY = "/admin-dashboard/visits/today";

/** The "On my way" form's post (the caller has checked that an admin sent it). */
export async function handleOnMyWayPost(request: Request, visitId: string, adminId: string, now = new Date()) {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  const formData = declared > MAX_FORM_BYTES ? null : await request.formData().catch(() => null);
  const returnTo = String(formData?.get("returnTo") ?? "");
  const back = returnTo === ("today" satisfies OnMyWayReturn) ? TODAY : visitPath(visitId);
  if (!formData) return redirectWithError(back, { message: "Error", description: "That form could not be read" });
  const estimateValue = String(formData.get("estimate") ?? "");
  const estimate = estimateValue && estimateValue.length <= 40 ? new Date(estimateValue) : null;

  const result = await sendOnMyWay({
    visitId,
    adminId,
    now,
    estimate: estimate && !Number.isNaN(estimate.getTime()) ? estimate : null,
  });
  switch (result.kind) {
    case "sent":
      return redirectWithSuccess(back, {
        message: "On my way sent",
        description: `The customer was told ${result.texted ? "by e-mail and text" : "by e-mail"}: arriving ${result.window}.`,
      });
    case "already":
      return redirectWithInfo(back, {
        message: "Already sent",
        description: `"On my way" was sent at ${formatBusinessClock(result.at)}; nothing new was sent.`,
      });
    case "not-scheduled":
      return redirectWithError(back, {
        message: "Error",
        description: `"On my way" is only for a scheduled visit; this one is not scheduled any more.`,
      });
    case "not-today":
      return redirectWithError(back, {
        message: "Error",
        description: `"On my way" is only for today's visits; this visit is on another day.`,
      });
    case "not-found":
      throw new Response("Visit not found", { status: 404 });
  }
}
