import { useEffect, useState } from "react";
import { toast as showToast } from "sonner";

export type ActionToastMessage = { type: "error" | "success"; message: string; description: string };

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
    if (toast.type === "error") showToast.error(toast.message, { description: toast.description });
    else showToast.success(toast.message, { description: toast.description });
  }, [toast]);

  if (hydrated || !toast) return null;
  const destructive = toast.type === "error";
  return (
    <div
      role={destructive ? "alert" : "status"}
      data-testid="flash-toast"
      data-type={toast.type}
      className={`fixed right-4 top-4 z-50 w-[min(24rem,calc(100vw-2rem))] rounded-lg border p-4 shadow-lg ${
        destructive
          ? "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-50"
          : "border-green-300 bg-green-50 text-green-900 dark:border-green-700 dark:bg-green-950 dark:text-green-50"
      }`}
    >
      <p className="font-semibold">{toast.message}</p>
      <p className="mt-1">{toast.description}</p>
    </div>
  );
}
