import {
  LARGE_FROM,
  STORAGE_KEYS,
  SWITCHES,
  TEXT_SCALE_ATTRIBUTE,
  TEXT_SIZE,
  TEXT_SIZE_KEY,
  X_LARGE_FROM,
} from "~/utils/a11y-preferences";

/** What the panel script needs to know; JSON, written into the inline script. */
type PanelConfig = {
  size: { min: number; max: number; step: number; default: number };
  sizeKey: string;
  keys: string[];
  switches: { id: string; key: string; className: string }[];
  scale: { attribute: string; large: number; xLarge: number };
};

/**
 * The accessibility panel's behaviour, in plain DOM code (decision 066): it runs as an inline
 * script right after the panel's markup, on pages that React hydrates and on pages that it does
 * not, so the panel works the same everywhere and costs no framework. React renders the markup
 * once and never changes it (the component has no props or state), so the two never fight.
 *
 * Self-contained: it is inlined with Function#toString, so it may not use anything from this
 * module's scope. The rules (clamping, stored values, what <html> gets) are those of
 * app/utils/a11y-preferences.ts, whose unit tests pin them; the browser tests pin this script.
 */
function enhancePanel(root: HTMLElement | null, c: PanelConfig) {
  if (!root || root.dataset.enhanced === "true") return;
  const doc = document.documentElement;
  const q = <T extends Element>(selector: string) => root.querySelector<T>(selector)!;
  const link = q<HTMLAnchorElement>("[data-a11y-link]");
  const trigger = q<HTMLButtonElement>("[data-a11y-button]");
  const dialog = q<HTMLDialogElement>("dialog");
  const sizeText = q<HTMLElement>("[data-a11y-size]");
  const decrease = q<HTMLButtonElement>("[data-a11y-step='-1']");
  const increase = q<HTMLButtonElement>("[data-a11y-step='1']");
  const status = q<HTMLElement>("[data-a11y-status]");
  const switches = Array.from(root.querySelectorAll<HTMLButtonElement>("[data-a11y-switch]"));
  if (!trigger || !dialog || typeof dialog.showModal !== "function") return;

  // Storage can be missing or throw (private modes, blocked cookies): settings then last for the page.
  const get = (key: string) => {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const put = (key: string, value: string | null) => {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch {
      // Nothing to do: the setting still applies to this page.
    }
  };
  type Prefs = Record<string, number | boolean>;
  const read = (): Prefs => {
    const prefs: Prefs = { textSize: c.size.default };
    const raw = get(c.sizeKey);
    if (typeof raw === "string" && raw.trim() !== "" && Number.isFinite(Number(raw))) {
      const stepped = Math.round(Number(raw) / c.size.step) * c.size.step;
      prefs.textSize = Math.min(c.size.max, Math.max(c.size.min, stepped));
    }
    for (const s of c.switches) prefs[s.id] = get(s.key) === "true";
    return prefs;
  };
  const apply = (prefs: Prefs) => {
    const size = prefs.textSize as number;
    doc.style.fontSize = `${size}%`;
    if (size >= c.scale.xLarge) doc.setAttribute(c.scale.attribute, "x-large");
    else if (size >= c.scale.large) doc.setAttribute(c.scale.attribute, "large");
    else doc.removeAttribute(c.scale.attribute);
    for (const s of c.switches) doc.classList.toggle(s.className, prefs[s.id] === true);
  };
  let prefs = read();
  const render = () => {
    const size = prefs.textSize as number;
    sizeText.textContent = String(size);
    // aria-disabled rather than disabled: a button that disables itself under the keyboard
    // would drop focus out of the dialog.
    decrease.setAttribute("aria-disabled", String(size <= c.size.min));
    increase.setAttribute("aria-disabled", String(size >= c.size.max));
    for (const button of switches)
      button.setAttribute("aria-checked", String(prefs[button.dataset.a11ySwitch!] === true));
  };
  const update = (next: Prefs, key: string, value: string) => {
    prefs = next;
    apply(prefs);
    put(key, value);
    status.textContent = "";
    render();
  };

  const step = (direction: number) => {
    const size = prefs.textSize as number;
    const next = Math.min(c.size.max, Math.max(c.size.min, size + direction * c.size.step));
    if (next === size) return;
    update({ ...prefs, textSize: next }, c.sizeKey, String(next));
  };
  decrease.addEventListener("click", () => step(-1));
  increase.addEventListener("click", () => step(1));
  for (const button of switches) {
    button.addEventListener("click", () => {
      const s = c.switches.find((candidate) => candidate.id === button.dataset.a11ySwitch)!;
      const on = prefs[s.id] !== true;
      update({ ...prefs, [s.id]: on }, s.key, String(on));
    });
  }
  q<HTMLButtonElement>("[data-a11y-reset]").addEventListener("click", () => {
    prefs = { textSize: c.size.default };
    for (const s of c.switches) prefs[s.id] = false;
    apply(prefs);
    for (const key of c.keys) put(key, null);
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
    if (event.key !== null && c.keys.indexOf(event.key) === -1) return;
    prefs = read();
    apply(prefs);
    render();
  });

  // The head script has already applied the saved settings; show them, and swap the link
  // (the statement page, for visitors without JavaScript) for the button.
  render();
  link.classList.replace("inline-flex", "hidden");
  trigger.classList.replace("hidden", "inline-flex");
  root.dataset.enhanced = "true";
}

const CONFIG: PanelConfig = {
  size: { min: TEXT_SIZE.min, max: TEXT_SIZE.max, step: TEXT_SIZE.step, default: TEXT_SIZE.default },
  sizeKey: TEXT_SIZE_KEY,
  keys: STORAGE_KEYS,
  switches: SWITCHES.map((s) => ({ id: s.id, key: s.storageKey, className: s.className })),
  scale: { attribute: TEXT_SCALE_ATTRIBUTE, large: LARGE_FROM, xLarge: X_LARGE_FROM },
};

/** The inline script placed right after the panel's markup, inside its wrapper. */
// Indentation dropped (every line keeps its end, so the code means the same): bytes of HTML (067).
export const PANEL_SCRIPT_SOURCE = `(${enhancePanel.toString().replace(/\n\s+/g, "\n")})(document.currentScript&&document.currentScript.parentElement,${JSON.stringify(CONFIG).replace(/</g, "\\u003c")})`;
