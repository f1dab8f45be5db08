import { STAFF_APP_SCOPE, STAFF_APP_START } from "./staff-app-paths";
import { getSiteSettings } from "~/content/content.server";

/**
 * The web app manifest of the technician's phone app (docs/decisions/127): installed from any
 * staff page, it opens on Today. The name is the business's, from Sanity's site settings; the
 * colours are the site's theme (root's theme-color, the icons' green).
 */
export async function staffAppManifest() {
  const settings = await getSiteSettings();
  return {
    name: settings.businessName,
    short_name: settings.businessName,
    description: `${settings.businessName}: today's route and visits`,
    id: STAFF_APP_START,
    start_url: STAFF_APP_START,
    scope: STAFF_APP_SCOPE,
    display: "standalone",
    orientation: "portrait",
    background_color: "#ffffff",
    theme_color: "#166440",
    icons: [
      { src: "/icons/staff-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icons/staff-512.png", sizes: "512x512", type: "image/png" },
      { src: "/icons/staff-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
