import { staffAppManifest } from "~/features/offline/staff-app-manifest.server";

// The technician's phone app's manifest (docs/decisions/127). Public: browsers fetch a manifest
// without cookies, and it says nothing but the business's name.
export async function loader() {
  return new Response(JSON.stringify(await staffAppManifest()), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "public, max-age=3600" },
  });
}
