import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import {
  applyPreferences,
  canDecreaseTextSize,
  canIncreaseTextSize,
  DEFAULT_PREFERENCES,
  HEAD_SCRIPT_SOURCE,
  parseStoredBoolean,
  parseTextSize,
  readPreferences,
  stepTextSize,
  STORAGE_KEYS,
  storedValue,
  SWITCHES,
  textScaleFor,
  type A11yPreferences,
} from "./a11y-preferences";

/** A stand-in for <html>: records what a preference run did to it. */
function fakeRoot() {
  const classes = new Set<string>();
  const attributes = new Map<string, string>();
  return {
    style: { fontSize: "" },
    classList: {
      add: (token: string) => void classes.add(token),
      toggle(token: string, force?: boolean) {
        const on = force ?? !classes.has(token);
        if (on) classes.add(token);
        else classes.delete(token);
        return on;
      },
    },
    setAttribute: (name: string, value: string) => void attributes.set(name, value),
    removeAttribute: (name: string) => void attributes.delete(name),
    classes,
    attributes,
  };
}

function storageOf(values: Record<string, string>) {
  return (key: string) => (key in values ? values[key] : null);
}

/** Runs the inline head script in a sandbox, as the browser would before the first paint. */
function runHeadScript(localStorage: unknown) {
  const root = fakeRoot();
  const window = {} as Record<string, unknown>;
  Object.defineProperty(window, "localStorage", {
    get() {
      if (localStorage instanceof Error) throw localStorage;
      return localStorage;
    },
  });
  runInNewContext(HEAD_SCRIPT_SOURCE, { window, document: { documentElement: root } });
  return root;
}

describe("parseTextSize", () => {
  it("keeps every allowed size", () => {
    for (let size = 80; size <= 150; size += 10) expect(parseTextSize(String(size))).toBe(size);
  });

  it("clamps out-of-range sizes to 80–150", () => {
    expect(parseTextSize("10")).toBe(80);
    expect(parseTextSize("-40")).toBe(80);
    expect(parseTextSize("0")).toBe(80);
    expect(parseTextSize("151")).toBe(150);
    expect(parseTextSize("1000")).toBe(150);
    expect(parseTextSize("1e9")).toBe(150);
  });

  it("rounds to the step of 10", () => {
    expect(parseTextSize("104")).toBe(100);
    expect(parseTextSize("105")).toBe(110);
    expect(parseTextSize("133.3")).toBe(130);
    expect(parseTextSize(" 120 ")).toBe(120);
  });

  it("ignores values that are not numbers", () => {
    for (const raw of [
      null,
      undefined,
      "",
      "   ",
      "big",
      "120px",
      "NaN",
      "Infinity",
      "-Infinity",
      "true",
      "{}",
      "[]",
    ]) {
      expect(parseTextSize(raw), String(raw)).toBeNull();
    }
    expect(parseTextSize(120)).toBeNull(); // storage only ever holds strings
  });
});

describe("parseStoredBoolean", () => {
  it("reads what the panel writes", () => {
    expect(parseStoredBoolean("true")).toBe(true);
    expect(parseStoredBoolean("false")).toBe(false);
  });

  it("ignores everything else", () => {
    for (const raw of [null, "", "TRUE", "yes", "1", "0", "on", '"true"', "null", true]) {
      expect(parseStoredBoolean(raw), String(raw)).toBeNull();
    }
  });
});

describe("readPreferences", () => {
  it("gives the defaults for empty storage", () => {
    expect(readPreferences(() => null)).toEqual(DEFAULT_PREFERENCES);
    expect(DEFAULT_PREFERENCES).toEqual({
      textSize: 100,
      darkMode: false,
      highContrast: false,
      highlightLinks: false,
      reduceMotion: false,
    });
  });

  it("reads every key by its exact name", () => {
    expect(STORAGE_KEYS).toEqual([
      "a11y-text-size",
      "a11y-dark-mode",
      "a11y-high-contrast",
      "a11y-highlight-links",
      "a11y-reduce-motion",
    ]);
    const prefs = readPreferences(
      storageOf({
        "a11y-text-size": "130",
        "a11y-dark-mode": "true",
        "a11y-high-contrast": "true",
        "a11y-highlight-links": "false",
        "a11y-reduce-motion": "true",
      }),
    );
    expect(prefs).toEqual({
      textSize: 130,
      darkMode: true,
      highContrast: true,
      highlightLinks: false,
      reduceMotion: true,
    });
  });

  it("falls back per key on bad values and never throws", () => {
    const prefs = readPreferences(
      storageOf({ "a11y-text-size": "huge", "a11y-dark-mode": "maybe", "a11y-reduce-motion": "true" }),
    );
    expect(prefs).toEqual({ ...DEFAULT_PREFERENCES, reduceMotion: true });
    const throwing = () => {
      throw new DOMException("denied", "SecurityError");
    };
    expect(readPreferences(throwing)).toEqual(DEFAULT_PREFERENCES);
  });
});

describe("text size steps", () => {
  it("moves by 10 and stops at the bounds", () => {
    expect(stepTextSize(100, 1)).toBe(110);
    expect(stepTextSize(100, -1)).toBe(90);
    expect(stepTextSize(150, 1)).toBe(150);
    expect(stepTextSize(80, -1)).toBe(80);
    expect(canDecreaseTextSize(80)).toBe(false);
    expect(canDecreaseTextSize(90)).toBe(true);
    expect(canIncreaseTextSize(150)).toBe(false);
    expect(canIncreaseTextSize(140)).toBe(true);
  });

  it("walks the whole range in eight sizes", () => {
    const sizes = [80];
    while (canIncreaseTextSize(sizes.at(-1)!)) sizes.push(stepTextSize(sizes.at(-1)!, 1));
    expect(sizes).toEqual([80, 90, 100, 110, 120, 130, 140, 150]);
  });
});

describe("storedValue", () => {
  it("writes what readPreferences reads back", () => {
    const prefs: A11yPreferences = { ...DEFAULT_PREFERENCES, textSize: 140, highlightLinks: true };
    const stored = Object.fromEntries(STORAGE_KEYS.map((key) => [key, storedValue(prefs, key)!]));
    expect(stored["a11y-text-size"]).toBe("140");
    expect(stored["a11y-highlight-links"]).toBe("true");
    expect(stored["a11y-dark-mode"]).toBe("false");
    expect(readPreferences(storageOf(stored))).toEqual(prefs);
    expect(storedValue(prefs, "something-else")).toBeNull();
  });
});

describe("applyPreferences", () => {
  it("sets the root font size, the classes and the text scale", () => {
    const root = fakeRoot();
    applyPreferences(root, { ...DEFAULT_PREFERENCES, textSize: 150, darkMode: true, reduceMotion: true });
    expect(root.style.fontSize).toBe("150%");
    expect([...root.classes].sort()).toEqual(["dark", "reduce-motion"]);
    expect(root.attributes.get("data-text-scale")).toBe("x-large");

    applyPreferences(root, DEFAULT_PREFERENCES);
    expect(root.style.fontSize).toBe("100%");
    expect(root.classes.size).toBe(0);
    expect(root.attributes.has("data-text-scale")).toBe(false);
  });

  it("maps each switch to its class", () => {
    expect(SWITCHES.map((s) => [s.label, s.className])).toEqual([
      ["Dark Mode", "dark"],
      ["High Contrast", "high-contrast"],
      ["Highlight Links", "highlight-links"],
      ["Reduce Motion", "reduce-motion"],
    ]);
  });

  it("scales the layout only above the default size", () => {
    expect([80, 90, 100, 110, 120, 130, 140, 150].map(textScaleFor)).toEqual([
      null,
      null,
      null,
      "large",
      "large",
      "large",
      "x-large",
      "x-large",
    ]);
  });
});

describe("the head script", () => {
  const cases: Record<string, string>[] = [
    {},
    { "a11y-text-size": "120", "a11y-dark-mode": "true" },
    {
      "a11y-text-size": "80",
      "a11y-high-contrast": "true",
      "a11y-highlight-links": "true",
      "a11y-reduce-motion": "true",
    },
    { "a11y-text-size": "9000", "a11y-dark-mode": "yes" },
    { "a11y-text-size": "-3", "a11y-reduce-motion": "false" },
    { "a11y-text-size": "115" },
    { "a11y-text-size": "abc", "a11y-high-contrast": "1" },
    { "a11y-text-size": "", "a11y-highlight-links": "TRUE" },
    { "a11y-text-size": "Infinity" },
    { "a11y-text-size": "140" },
  ];

  it.each(cases)("applies the same preferences as the panel: %o", (values) => {
    const fromScript = runHeadScript({ getItem: storageOf(values) });
    const expected = fakeRoot();
    const prefs = readPreferences(storageOf(values));
    applyPreferences(expected, prefs);
    // The script leaves defaults alone (no inline style, no class), the panel writes them out.
    const storedSize = parseTextSize(values["a11y-text-size"]);
    expect(fromScript.style.fontSize).toBe(storedSize === null ? "" : `${prefs.textSize}%`);
    expect([...fromScript.classes].sort()).toEqual([...expected.classes].sort());
    expect(Object.fromEntries(fromScript.attributes)).toEqual(Object.fromEntries(expected.attributes));
  });

  it("does nothing and throws nothing when storage is unavailable", () => {
    const blocked = runHeadScript(new DOMException("The operation is insecure.", "SecurityError"));
    expect(blocked.style.fontSize).toBe("");
    expect(blocked.classes.size).toBe(0);
    const broken = runHeadScript({
      getItem() {
        throw new Error("quota");
      },
    });
    expect(broken.classes.size).toBe(0);
    expect(runHeadScript(null).classes.size).toBe(0);
  });

  it("stays tiny and free of anything that would need a bundle", () => {
    expect(HEAD_SCRIPT_SOURCE.length).toBeLessThan(700);
    expect(HEAD_SCRIPT_SOURCE).not.toMatch(/\bimport\b|\brequire\b|=>|\blet\b|\bconst\b/);
  });
});
