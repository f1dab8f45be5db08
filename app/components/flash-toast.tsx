import { useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { ToastMessage } from "remix-toast";
import { useStaticPage } from "~/utils/static-page";
import { BrowserScript } from "./browser-script";
import { Toaster, toast as showToast } from "./toaster";

/**
 * Shows the server's flash toast. On a static page (decision 075), before hydration and always
 * with JavaScript off it is rendered as a static live region; once React runs, sonner takes over.
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

/**
 * The server's toast: a live region (`alert` for a failure, `status` otherwise) in a box at the
 * top right. On a static page (decision 075) it comes with its plain script,
 * static-toast.browser.ts, which reveals the close button (rendered `hidden`: without
 * JavaScript there is nothing to close it with) and closes it. The button sits beside the live
 * region, not in it, so that revealing it is never announced. A hydrated page renders this only
 * until React takes over (sonner then shows the toast), without the script.
 */
export function StaticToast({ toast }: { toast: ToastMessage }) {
  const staticPage = useStaticPage();
  const script = useRouteLoaderData<{ toastScript?: string | null }>("root")?.toastScript;
  const destructive = toast.type === "error" || toast.type === "warning";
  return (
    <>
      <div
        data-static-toast=""
        className={`fixed right-4 top-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] items-start gap-2 rounded-lg border p-4 shadow-lg ${
          destructive
            ? "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-50"
            : "border-green-300 bg-green-50 text-green-900 dark:border-green-700 dark:bg-green-950 dark:text-green-50"
        }`}
      >
        <div
          role={destructive ? "alert" : "status"}
          data-testid="flash-toast"
          data-type={toast.type}
          className="min-w-0 flex-1"
        >
          <p className="font-semibold">{toast.message}</p>
          {toast.description ? <p className="mt-1">{toast.description}</p> : null}
        </div>
        {/* No display utility: it would outrank the `hidden` attribute. A 36 px target (WCAG 2.5.8). */}
        <button
          type="button"
          hidden
          data-toast-close=""
          className="-mr-2 -mt-2 h-9 w-9 shrink-0 rounded-md hover:bg-black/10 dark:hover:bg-white/15"
        >
          <svg viewBox="0 0 24 24" className="mx-auto h-5 w-5" aria-hidden="true" focusable="false">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <span className="sr-only">Close notification</span>
        </button>
      </div>
      {staticPage ? <BrowserScript src={script} /> : null}
    </>
  );
}
