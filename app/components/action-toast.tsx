import { useEffect, useState } from "react";
import { toast as showToast } from "sonner";
import { StaticToast } from "~/components/flash-toast";

/** A failure unless `type` says "success". */
export type ActionToastMessage = { type?: "error" | "success"; message: string; description: string };

/**
 * A toast carried by an action's data instead of the flash cookie: used when the action
 * answers with the form again (to keep what was typed) rather than redirecting. The flash
 * cookie would only be read on the next page load, so the toast is shown from here: as a
 * static live region with JavaScript off, through sonner once React runs.
 */
export function ActionToast({ toast }: { toast: ActionToastMessage | undefined }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    if (!toast) return;
    if (toast.type !== "success") showToast.error(toast.message, { description: toast.description });
    else showToast.success(toast.message, { description: toast.description });
  }, [toast]);

  if (hydrated || !toast) return null;
  return <StaticToast toast={{ ...toast, type: toast.type ?? "error" }} />;
}
