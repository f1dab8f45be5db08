import { redirect } from "@remix-run/node";
import { endPreviewSession } from "~/content/preview.server";
import { PRIVATE_CACHE_CONTROL } from "~/utils/cache-headers";

/** Ends preview for this browser (the Studio calls it too when the owner leaves Presentation). */
export async function loader() {
  return redirect("/", {
    headers: { "Set-Cookie": await endPreviewSession(), "Cache-Control": PRIVATE_CACHE_CONTROL },
  });
}
