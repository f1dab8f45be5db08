// The accessibility panel's preferences: what is stored in the browser, how a stored value is
// read back, and how a set of preferences is applied to <html>. Pure functions, no React, so the
// panel, the inline <head> script and the unit tests share one definition.

export const TEXT_SIZE = { min: 80, max: 150, step: 10, default: 100 } as const;

export const TEXT_SIZE_KEY = "a11y-text-size";

export const SWITCHES = [
  { id: "darkMode", label: "Dark Mode", storageKey: "a11y-dark-mode", className: "dark" },
  { id: "highContrast", label: "High Contrast", storageKey: "a11y-high-contrast", className: "high-contrast" },
  { id: "highlightLinks", label: "Highlight Links", storageKey: "a11y-highlight-links", className: "highlight-links" },
  { id: "reduceMotion", label: "Reduce Motion", storageKey: "a11y-reduce-motion", className: "reduce-motion" },
] as const;

export type SwitchId = (typeof SWITCHES)[number]["id"];
export type A11yPreferences = { textSize: number } & Record<SwitchId, boolean>;

export const DEFAULT_PREFERENCES: A11yPreferences = {
  textSize: TEXT_SIZE.default,
  darkMode: false,
  highContrast: false,
  highlightLinks: false,
  reduceMotion: false,
};

export const STORAGE_KEYS = [TEXT_SIZE_KEY, ...SWITCHES.map((s) => s.storageKey)];

/**
 * Large text needs more room than the desktop nav has at its usual breakpoint, so <html> carries
 * a coarse scale that the `text-large:` and `text-x-large:` variants key on (CSS media queries
 * cannot see the root font size).
 */
export const TEXT_SCALE_ATTRIBUTE = "data-text-scale";
export const LARGE_FROM = 110;
export const X_LARGE_FROM = 140;

export function textScaleFor(size: number): "large" | "x-large" | null {
  if (size >= X_LARGE_FROM) return "x-large";
  if (size >= LARGE_FROM) return "large";
  return null;
}

/** Any finite number → the nearest allowed size (rounded to the step, clamped to the bounds). */
export function normalizeTextSize(size: number): number {
  const stepped = Math.round(size / TEXT_SIZE.step) * TEXT_SIZE.step;
  return Math.min(TEXT_SIZE.max, Math.max(TEXT_SIZE.min, stepped));
}

/** A stored text size, or null when the value is missing or not a number at all. */
export function parseTextSize(raw: unknown): number | null {
  if (typeof raw !== "string" || raw.trim() === "") return null;
  const size = Number(raw);
  return Number.isFinite(size) ? normalizeTextSize(size) : null;
}

/** A stored switch: "true" or "false" as written by the panel; anything else is ignored. */
export function parseStoredBoolean(raw: unknown): boolean | null {
  if (raw === "true") return true;
  if (raw === "false") return false;
  return null;
}

/**
 * Reads every preference through `getItem` (localStorage.getItem in the browser). Never throws:
 * a value that cannot be read or understood leaves that preference at its default.
 */
export function readPreferences(getItem: (key: string) => string | null): A11yPreferences {
  const read = (key: string) => {
    try {
      return getItem(key);
    } catch {
      return null;
    }
  };
  const prefs = { ...DEFAULT_PREFERENCES };
  prefs.textSize = parseTextSize(read(TEXT_SIZE_KEY)) ?? TEXT_SIZE.default;
  for (const s of SWITCHES) prefs[s.id] = parseStoredBoolean(read(s.storageKey)) ?? false;
  return prefs;
}

export function stepTextSize(size: number, direction: 1 | -1): number {
  return normalizeTextSize(size + direction * TEXT_SIZE.step);
}

export const canDecreaseTextSize = (size: number) => size > TEXT_SIZE.min;
export const canIncreaseTextSize = (size: number) => size < TEXT_SIZE.max;

/** The storage value of one preference, as the head script and readPreferences expect it. */
export function storedValue(prefs: A11yPreferences, key: string): string | null {
  if (key === TEXT_SIZE_KEY) return String(prefs.textSize);
  const s = SWITCHES.find((candidate) => candidate.storageKey === key);
  return s ? String(prefs[s.id]) : null;
}

/** The part of <html> the preferences touch; an interface so tests need no DOM. */
export type RootElementLike = {
  style: { fontSize: string };
  classList: { toggle(token: string, force?: boolean): boolean };
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
};

export function applyPreferences(root: RootElementLike, prefs: A11yPreferences) {
  root.style.fontSize = `${prefs.textSize}%`;
  const scale = textScaleFor(prefs.textSize);
  if (scale) root.setAttribute(TEXT_SCALE_ATTRIBUTE, scale);
  else root.removeAttribute(TEXT_SCALE_ATTRIBUTE);
  for (const s of SWITCHES) root.classList.toggle(s.className, prefs[s.id]);
}

/**
 * The inline <head> script: applies stored preferences before the first paint. It is the
 * browser-side twin of readPreferences + applyPreferences (the unit tests run both over the same
 * stored values), written in ES5 and kept tiny because it blocks rendering. Anything unexpected,
 * including localStorage being unavailable, leaves the page at its defaults.
 */
// Pure: a bundle that does not use it (the panel's browser script) leaves it out.
export const HEAD_SCRIPT_SOURCE = /* @__PURE__ */ [
  "(function(){try{",
  "var d=document.documentElement,s=window.localStorage,",
  `v=s.getItem(${JSON.stringify(TEXT_SIZE_KEY)}),n,k,`,
  `m=${JSON.stringify(Object.fromEntries(SWITCHES.map((sw) => [sw.storageKey, sw.className])))};`,
  "if(typeof v==='string'&&/\\S/.test(v)){n=Number(v);if(isFinite(n)){",
  `n=Math.min(${TEXT_SIZE.max},Math.max(${TEXT_SIZE.min},Math.round(n/${TEXT_SIZE.step})*${TEXT_SIZE.step}));`,
  "d.style.fontSize=n+'%';",
  `if(n>=${LARGE_FROM})d.setAttribute(${JSON.stringify(TEXT_SCALE_ATTRIBUTE)},n>=${X_LARGE_FROM}?'x-large':'large')}}`,
  "for(k in m)if(s.getItem(k)==='true')d.classList.add(m[k])",
  "}catch(e){}})();",
].join("");
