import { lazy, Suspense, useEffect, useState } from "react";
import type { ToasterProps } from "sonner";

/**
 * sonner, loaded on first use: most visits never show a toast, and sonner is 10 KB of gzip that
 * every public page would otherwise ship (the JS budget is 90 KB a page).
 */
type Sonner = typeof import("sonner");
type ToastOptions = { description?: string; duration?: number };
type ToastKind = "success" | "error" | "info" | "warning";

let sonner: Promise<Sonner> | undefined;
const loadSonner = () => (sonner ??= import("sonner"));

// The Toaster mounts when the first toast is asked for; toasts wait until it listens (sonner
// drops toasts published before its Toaster subscribed).
let requested = false;
const mountRequests = new Set<() => void>();
let resolveMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => (resolveMounted = resolve));

async function show(kind: ToastKind, message: string, options?: ToastOptions) {
  requested = true;
  for (const request of mountRequests) request();
  const [{ toast: sonnerToast }] = await Promise.all([loadSonner(), mounted]);
  sonnerToast[kind](message, options);
}

/** sonner's `toast` API, for the kinds this site uses. */
export const toast = {
  success: (message: string, options?: ToastOptions) => void show("success", message, options),
  error: (message: string, options?: ToastOptions) => void show("error", message, options),
  info: (message: string, options?: ToastOptions) => void show("info", message, options),
  warning: (message: string, options?: ToastOptions) => void show("warning", message, options),
};

const SonnerToaster = lazy(() => loadSonner().then((module) => ({ default: module.Toaster })));

function Mounted() {
  // Runs after the sibling Toaster's own effects, i.e. once it has subscribed.
  useEffect(() => resolveMounted(), []);
  return null;
}

/** sonner's <Toaster>, rendered (and downloaded) only once a toast is shown. */
export function Toaster(props: ToasterProps) {
  const [active, setActive] = useState(requested);
  useEffect(() => {
    const request = () => setActive(true);
    mountRequests.add(request);
    if (requested) request();
    return () => void mountRequests.delete(request);
  }, []);
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster {...props} />
      <Mounted />
    </Suspense>
  );
}
