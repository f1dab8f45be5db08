/**
 * Where an upload form wants to come back to (`?back=`): only a same-site admin path, so the
 * parameter cannot send an admin to another site (open redirect) or to a customer page.
 */
export function safeAdminBack(value: string | null | undefined): string | null {
  if (!value || value.length > 500 || !value.startsWith("/admin-dashboard")) return null;
  if (value.includes("\\") || value.startsWith("//")) return null;
  let url: URL;
  try {
    url = new URL(value, "http://site.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "http://site.invalid") return null;
  if (url.pathname !== "/admin-dashboard" && !url.pathname.startsWith("/admin-dashboard/")) return null;
  return `${url.pathname}${url.search}`;
}

/** The upload route's URL for a visit, with the page to come back to. */
export function mediaUploadAction(visitId: string, back?: string) {
  const params = new URLSearchParams({ service: visitId });
  if (back) params.set("back", back);
  return `/resources/media-upload?${params}`;
}
