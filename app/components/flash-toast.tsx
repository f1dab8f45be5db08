import { useEffect, useState } from "react";
import { Toaster, toast as showToast } from "./toaster";
import type { ToastMessage } from "remix-toast";

/**
 * Shows the server's flash toast. Before hydration (and always with JavaScript off) it is
 * rendered as a static live region; once React runs, sonner takes over.
 */
export function FlashToast({ toast }: { toast: ToastMessage | undefined }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    if (!hydrated || !toast) return;
    const options = { description: toast.description, duration: toast.duration };
    if (toast.type === "error") showToast.error(toast.message, options);
    else if (toast.type === "success") showToast.success(toast.message, options);
    else if (toast.type === "warning") showToast.warning(toast.message, options);
    else showToast.info(toast.message, options);
  }, [toast, hydrated]);

  return (
    <>
      <Toaster position="top-right" richColors closeButton theme="system" toastOptions={{ className: "text-base" }} />
      {!hydrated && toast ? <StaticToast toast={toast} /> : null}
    </>
  );
}

export function StaticToast({ toast }: { toast: ToastMessage }) {
  const destructive = toast.type === "error" || toast.type === "warning";
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
      {toast.description ? <p className="mt-1">{toast.description}</p> : null}
    </div>
  );
}
