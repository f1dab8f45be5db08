/**
 * The close button of the server's toasts on static pages (decision 075): the flash toast after
 * a redirect and an action's refusal toast (`StaticToast` in flash-toast.tsx). The button is
 * rendered `hidden`, so that without JavaScript it never shows; this script reveals it, closes
 * the toast on click or on Escape inside it, and puts focus back where it was before it went
 * into the toast (or on the main content). Toasts never close by themselves (WCAG 2.2.1).
 * Once the page has loaded it puts the live region's content back as new nodes, so that screen
 * readers announce it (a live region that is already there at load is mostly not read out).
 *
 * The script tag is rendered only with a toast; a page with two toasts names it twice, and a
 * module runs once. Plain browser code: never React or Remix (.dependency-cruiser.cjs).
 */

const TOAST = "[data-static-toast]";
const CLOSE = "[data-toast-close]";
const REGION = "[role=alert], [role=status]";
/** After the load event: screen readers take in a loading page first, and ignore changes meanwhile. */
const ANNOUNCE_DELAY_MS = 500;

/** The last element focused outside every toast: where focus returns when a toast closes. */
let lastOutside: Element | null = document.activeElement === document.body ? null : document.activeElement;
document.addEventListener("focusin", (event) => {
  if (event.target instanceof Element && !event.target.closest(TOAST)) lastOutside = event.target;
});

function focusAfterClose(preventScroll: boolean) {
  const candidates = [lastOutside, document.getElementById("main-content")];
  for (const candidate of candidates) {
    if (!(candidate instanceof HTMLElement) || !candidate.isConnected) continue;
    candidate.focus({ preventScroll });
    if (document.activeElement === candidate) return;
  }
}

function close(toast: HTMLElement, byPointer: boolean) {
  const hadFocus = toast.contains(document.activeElement);
  toast.remove();
  // Focus inside a removed node falls back to <body>: the next Tab would start over at the top.
  if (hadFocus) focusAfterClose(byPointer);
}

/**
 * The same text again, as new nodes: an addition to the live region, which screen readers
 * announce (sonner's toasts were announced, being inserted after hydration). Nothing moves.
 */
function announce() {
  for (const region of document.querySelectorAll(`${TOAST} :is(${REGION})`))
    region.replaceChildren(...[...region.childNodes].map((node) => node.cloneNode(true)));
}
const announceLater = () => setTimeout(announce, ANNOUNCE_DELAY_MS);
if (document.readyState === "complete") announceLater();
else window.addEventListener("load", announceLater, { once: true });

for (const toast of document.querySelectorAll<HTMLElement>(TOAST)) {
  const button = toast.querySelector<HTMLButtonElement>(CLOSE);
  if (!button || toast.dataset.enhanced) continue;
  toast.dataset.enhanced = "true";
  button.hidden = false;
  // detail is 0 for a click made with the keyboard (Enter, Space).
  button.addEventListener("click", (event) => close(toast, event.detail > 0));
  toast.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    close(toast, false);
  });
}

// A module (ESM, as the build bundles it), not a global script.
export {};
