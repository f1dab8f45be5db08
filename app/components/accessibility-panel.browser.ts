import {
  applyPreferences,
  canDecreaseTextSize,
  canIncreaseTextSize,
  DEFAULT_PREFERENCES,
  readPreferences,
  stepTextSize,
  STORAGE_KEYS,
  storedValue,
  SWITCHES,
  TEXT_SIZE_KEY,
  type A11yPreferences,
} from "~/utils/a11y-preferences";

/**
 * The accessibility panel's behaviour (decisions 066, 074): a plain browser script (068), one
 * cached file for every page instead of an inline copy in every page's HTML. The saved settings
 * are applied before the first paint by the tiny inline <head> script (a11y-head-script.tsx);
 * this only makes the panel work: dialog, text size, switches, reset, other tabs' changes.
 *
 * A module script runs once the HTML is parsed and before any later module script, so on a
 * hydrated page it has run before React hydrates. React renders the panel's markup once and
 * never changes it (the component's one prop is the constant URL of this script), and this
 * script never changes a class React would re-render: the two never fight.
 */
function enhancePanel(root: HTMLElement | null) {
  if (!root || root.dataset.enhanced === "true") return;
  // The controls, by role and order (accessibility-panel.tsx renders them so).
  const q = <T extends Element>(selector: string) => root.querySelector<T>(selector)!;
  const link = q<HTMLAnchorElement>("a");
  const trigger = q<HTMLButtonElement>("button[aria-haspopup]");
  const dialog = q<HTMLDialogElement>("dialog");
  const sizeText = q<HTMLElement>("[data-a11y-size]");
  const [decrease, increase] = Array.from(root.querySelectorAll<HTMLButtonElement>(".step-button"));
  const status = q<HTMLElement>("[role=status]");
  // One per SWITCHES entry, in the same order.
  const switches = Array.from(root.querySelectorAll<HTMLButtonElement>("[role=switch]"));
  if (!link || !trigger || !dialog || typeof dialog.showModal !== "function") return;
  if (!increase || switches.length !== SWITCHES.length) return;

  // Storage can be missing or throw (private modes, blocked cookies): settings then last for the page.
  const get = (key: string) => window.localStorage.getItem(key); // readPreferences catches
  const put = (key: string, value: string | null) => {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch {
      // Nothing to do: the setting still applies to this page.
    }
  };
  const doc = document.documentElement;
  let prefs = readPreferences(get);

  const render = () => {
    sizeText.textContent = String(prefs.textSize);
    // aria-disabled rather than disabled: a button that disables itself under the keyboard
    // would drop focus out of the dialog.
    decrease.setAttribute("aria-disabled", String(!canDecreaseTextSize(prefs.textSize)));
    increase.setAttribute("aria-disabled", String(!canIncreaseTextSize(prefs.textSize)));
    switches.forEach((button, i) => button.setAttribute("aria-checked", String(prefs[SWITCHES[i].id])));
  };
  const update = (next: A11yPreferences, key: string) => {
    prefs = next;
    applyPreferences(doc, prefs);
    put(key, storedValue(prefs, key));
    status.textContent = "";
    render();
  };

  const step = (direction: 1 | -1) => {
    const size = stepTextSize(prefs.textSize, direction);
    if (size !== prefs.textSize) update({ ...prefs, textSize: size }, TEXT_SIZE_KEY);
  };
  decrease.addEventListener("click", () => step(-1));
  increase.addEventListener("click", () => step(1));
  switches.forEach((button, i) => {
    const s = SWITCHES[i];
    button.addEventListener("click", () => update({ ...prefs, [s.id]: !prefs[s.id] }, s.storageKey));
  });
  q<HTMLButtonElement>("[data-a11y-reset]").addEventListener("click", () => {
    prefs = { ...DEFAULT_PREFERENCES };
    applyPreferences(doc, prefs);
    for (const key of STORAGE_KEYS) put(key, null);
    render();
    status.textContent = "All settings have been reset.";
  });

  trigger.addEventListener("click", () => {
    if (dialog.open) return;
    status.textContent = "";
    dialog.showModal();
    trigger.setAttribute("aria-expanded", "true");
  });
  q<HTMLButtonElement>("[data-a11y-close]").addEventListener("click", () => dialog.close());
  // Escape (the native cancel), the close button and a backdrop click all end in "close".
  dialog.addEventListener("close", () => {
    trigger.setAttribute("aria-expanded", "false");
    trigger.focus();
  });
  // A click on the backdrop lands on the <dialog> itself; the panel's content covers the rest.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });
  // showModal makes the page inert; this keeps Tab cycling inside the dialog instead of
  // escaping to the browser's own toolbar after the last control.
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const focusables = Array.from(dialog.querySelectorAll<HTMLElement>("button:not([disabled]), a[href]"));
    if (focusables.length === 0) return;
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
  // Another tab changed a setting: follow it here too.
  window.addEventListener("storage", (event) => {
    if (event.key !== null && !STORAGE_KEYS.includes(event.key)) return;
    prefs = readPreferences(get);
    applyPreferences(doc, prefs);
    render();
  });

  // The head script has already applied the saved settings; show them, and swap the link
  // (the statement page, for visitors without JavaScript) for the button. Both look the same.
  render();
  link.classList.replace("inline-flex", "hidden");
  trigger.classList.replace("hidden", "inline-flex");
  root.dataset.enhanced = "true";
}

enhancePanel(document.querySelector<HTMLElement>("[data-a11y-panel]"));

// "The page is live" (browser tests wait for it). On a hydrated page React says so once it has
// hydrated (root.tsx); a static page (066) has no React, and this, the last module script of
// the page, has run after the page's own browser scripts (module scripts run in document order).
if (!("__remixContext" in window)) document.documentElement.dataset.hydrated = "true";
