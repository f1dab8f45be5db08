import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { validatePreviewUrl } from "@sanity/preview-url-secret";
import { previewConfig, previewSecretClient, startPreviewSession } from "~/content/preview.server";
import { PRIVATE_CACHE_CONTROL } from "~/utils/cache-headers";

const plain = (status: number, message: string) =>
  new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PRIVATE_CACHE_CONTROL },
  });

/**
 * Where the Studio's Presentation tool opens the site: checks the one-time preview secret it
 * created with Sanity, then starts preview for this browser and goes to the page asked for.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const config = previewConfig();
  const client = previewSecretClient();
  if (!config.available || !client) return plain(404, config.unavailableReason ?? "Preview is off.");

  const { isValid, redirectTo = "/" } = await validatePreviewUrl(client, request.url);
  if (!isValid) return plain(401, "This preview link is not valid (or has expired). Open the preview from the Studio.");

  // Only a path on this site: never an open redirect.
  const target = redirectTo.startsWith("/") && !redirectTo.startsWith("//") ? redirectTo : "/";
  return redirect(target, {
    headers: { "Set-Cookie": await startPreviewSession(), "Cache-Control": PRIVATE_CACHE_CONTROL },
  });
}
