import { createHash } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "./helpers";

const KEYS = {
  textSize: "a11y-text-size",
  highContrast: "a11y-high-contrast",
  darkMode: "a11y-dark-mode",
  highlightLinks: "a11y-highlight-links",
  reduceMotion: "a11y-reduce-motion",
};

const SWITCHES = [
  { name: "Dark Mode", className: "dark", key: KEYS.darkMode },
  { name: "High Contrast", className: "high-contrast", key: KEYS.highContrast },
  { name: "Highlight Links", className: "highlight-links", key: KEYS.highlightLinks },
  { name: "Reduce Motion", className: "reduce-motion", key: KEYS.reduceMotion },
] as const;

const trigger = (page: Page) => page.getByRole("button", { name: "Accessibility settings", exact: true });
const dialog = (page: Page) => page.getByRole("dialog", { name: "Accessibility" });
const sizeValue = (page: Page) => dialog(page).getByTestId("text-size-value");
const decrease = (page: Page) => dialog(page).getByRole("button", { name: "Decrease text size" });
const increase = (page: Page) => dialog(page).getByRole("button", { name: "Increase text size" });

async function openPanel(page: Page) {
  await trigger(page).click();
  await expect(dialog(page)).toBeVisible();
}

const storedValue = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);
const rootFontSize = (page: Page) => page.evaluate(() => document.documentElement.style.fontSize);
const rootClasses = (page: Page) => page.evaluate(() => [...document.documentElement.classList].sort());

/** Stores settings before any script of the page runs (on every load of this page). */
async function storeBeforeLoad(page: Page, values: Record<string, string>) {
  await page.addInitScript((entries) => {
    for (const [key, value] of Object.entries(entries)) window.localStorage.setItem(key, value);
  }, values);
}

/** A keyboard focus indicator: a real outline or a box-shadow ring on the focused element. */
async function expectVisibleFocus(page: Page) {
  const focus = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    return {
      element: `${el.tagName.toLowerCase()} ${el.textContent?.trim().slice(0, 40) ?? ""}`,
      outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
      shadow: style.boxShadow !== "none",
      visible: rect.width > 0 && rect.height > 0,
    };
  });
  expect(focus, "something has focus").not.toBeNull();
  expect(focus!.visible, `${focus!.element} is on screen`).toBe(true);
  expect(focus!.outline || focus!.shadow, `${focus!.element} shows a focus indicator`).toBe(true);
}

test.describe("the accessibility button", () => {
  test("is round, at the bottom right, at least 44 px, and opens the dialog @phone", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const button = trigger(page);
    await expect(button).toHaveAttribute("aria-haspopup", "dialog");
    await expect(button).toHaveAttribute("aria-expanded", "false");
    const box = (await button.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.x + box.width).toBeGreaterThan(viewport.width - 40);
    expect(box.y + box.height).toBeGreaterThan(viewport.height - 40);
    expect(await button.evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
    expect(await button.evaluate((el) => getComputedStyle(el).borderRadius)).toMatch(/9999px|50%/);

    await expect(dialog(page)).toBeHidden();
    await button.click();
    await expect(dialog(page)).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(dialog(page).getByRole("heading", { name: "Accessibility", level: 2 })).toBeVisible();
    await expect(dialog(page).getByText("saved in this browser")).toBeVisible();
    // A real modal: the page behind is inert.
    expect(await dialog(page).evaluate((el) => el.matches(":modal"))).toBe(true);
  });

  test("closes with its close button and gives focus back to the button @phone", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await openPanel(page);
    await dialog(page).getByRole("button", { name: "Close accessibility settings" }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(trigger(page)).toBeFocused();
    await expect(trigger(page)).toHaveAttribute("aria-expanded", "false");
  });

  test("closes with Escape and gives focus back to the button", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await trigger(page).focus();
    await page.keyboard.press("Enter");
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole("button", { name: "Close accessibility settings" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog(page)).toBeHidden();
    await expect(trigger(page)).toBeFocused();
    // And it opens again after that.
    await page.keyboard.press("Enter");
    await expect(dialog(page)).toBeVisible();
  });

  test("keeps focus inside while open, in both directions", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await openPanel(page);
    const close = dialog(page).getByRole("button", { name: "Close accessibility settings" });
    const reset = dialog(page).getByRole("button", { name: "Reset All Settings" });
    await expect(close).toBeFocused();

    // close, decrease, increase, four switches, reset: eight stops, then back to the start.
    const seen: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab");
      const inside = await dialog(page).evaluate((el) => el.contains(document.activeElement));
      expect(inside, `Tab #${i + 1} stays in the dialog`).toBe(true);
      // The control's name: its aria-label (icon buttons) or its text.
      seen.push(
        await page.evaluate(() => {
          const el = document.activeElement;
          return el?.getAttribute("aria-label") ?? el?.textContent?.trim() ?? "";
        }),
      );
    }
    expect(seen.slice(0, 7)).toEqual([
      "Decrease text size",
      "Increase text size",
      "Dark Mode",
      "High Contrast",
      "Highlight Links",
      "Reduce Motion",
      "Reset All Settings",
    ]);
    await expect(close).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(reset).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(dialog(page).getByRole("switch", { name: "Reduce Motion" })).toBeFocused();
  });
});

test.describe("text size", () => {
  test("moves in steps of 10 between 80 and 150, with the bounds disabled", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await openPanel(page);
    await expect(sizeValue(page)).toHaveText(/100%/);
    await expect(decrease(page)).toBeEnabled();
    await expect(increase(page)).toBeEnabled();

    for (const size of [90, 80]) {
      await decrease(page).click();
      await expect(sizeValue(page)).toHaveText(new RegExp(`${size}%`));
      expect(await rootFontSize(page)).toBe(`${size}%`);
      expect(await storedValue(page, KEYS.textSize)).toBe(String(size));
    }
    await expect(decrease(page)).toBeDisabled();
    await decrease(page).click({ force: true });
    await expect(sizeValue(page)).toHaveText(/80%/);
    expect(await rootFontSize(page)).toBe("80%");

    for (const size of [90, 100, 110, 120, 130, 140, 150]) {
      await increase(page).click();
      await expect(sizeValue(page)).toHaveText(new RegExp(`${size}%`));
      expect(await rootFontSize(page)).toBe(`${size}%`);
      expect(await storedValue(page, KEYS.textSize)).toBe(String(size));
      await expect(decrease(page)).toBeEnabled();
    }
    await expect(increase(page)).toBeDisabled();
    await increase(page).click({ force: true });
    await expect(sizeValue(page)).toHaveText(/150%/);
    // The percentage is the root font size: 150% of the browser's 16 px.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe("24px");
    // The layout is in rem: the page heading grew with it.
    const headingSize = await page
      .locator("h1")
      .first()
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(headingSize).toBeGreaterThanOrEqual(36);
  });

  test("announces the new size politely", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await openPanel(page);
    await expect(sizeValue(page)).toHaveAttribute("aria-live", "polite");
    await increase(page).click();
    await expect(sizeValue(page)).toHaveText("Text size 110%");
  });

  test("keeps keyboard focus on a step button that reaches its bound", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await openPanel(page);
    await decrease(page).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Space");
    await expect(sizeValue(page)).toHaveText(/80%/);
    await expect(decrease(page)).toBeDisabled();
    await expect(decrease(page)).toBeFocused();
  });
});

test.describe("switches", () => {
  for (const s of SWITCHES) {
    test(`${s.name} toggles the ${s.className} class and its stored key`, async ({ page }) => {
      await page.goto("/");
      await waitForHydration(page);
      await openPanel(page);
      const control = dialog(page).getByRole("switch", { name: s.name });
      await expect(control).toHaveAttribute("aria-checked", "false");
      expect(await rootClasses(page)).not.toContain(s.className);

      await control.click();
      await expect(control).toHaveAttribute("aria-checked", "true");
      expect(await rootClasses(page)).toContain(s.className);
      expect(await storedValue(page, s.key)).toBe("true");
      // Only this switch's class.
      for (const other of SWITCHES.filter((o) => o !== s)) {
        expect(await rootClasses(page)).not.toContain(other.className);
      }

      await control.press("Space");
      await expect(control).toHaveAttribute("aria-checked", "false");
      expect(await rootClasses(page)).not.toContain(s.className);
      expect(await storedValue(page, s.key)).toBe("false");
    });
  }

  test("each theme really changes the page", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await openPanel(page);
    const bodyColors = () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.body);
        return `${style.backgroundColor} ${style.color}`;
      });
    const light = await bodyColors();

    await dialog(page).getByRole("switch", { name: "Dark Mode" }).click();
    const dark = await bodyColors();
    expect(dark).not.toBe(light);

    await dialog(page).getByRole("switch", { name: "High Contrast" }).click();
    // Colours may be mid-transition right after the click (the links have transition-colors):
    // the assertions wait for where they settle.
    await expect.poll(bodyColors).toBe("rgb(0, 0, 0) rgb(255, 255, 255)");
    const footerLink = page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" });
    await expect(footerLink).toHaveCSS("color", "rgb(255, 255, 0)");
    expect(await footerLink.evaluate((el) => getComputedStyle(el).textDecorationLine)).toContain("underline");
    // With one colour for every link, the current page is boxed instead.
    const current = page.locator('header a[aria-current="page"]:visible');
    await expect(current).toHaveCSS("border-top-color", "rgb(255, 255, 0)");
    await dialog(page).getByRole("switch", { name: "High Contrast" }).click();

    await dialog(page).getByRole("switch", { name: "Highlight Links" }).click();
    for (const link of await page.locator("a[href]").all()) {
      const style = await link.evaluate((el) => getComputedStyle(el));
      expect(style.textDecorationLine).toContain("underline");
      expect(style.outlineStyle).not.toBe("none");
    }

    await dialog(page).getByRole("switch", { name: "Reduce Motion" }).click();
    const motion = await page.evaluate(() => {
      const probes = [document.documentElement, ...document.querySelectorAll("a, button, [class*=transition]")];
      return {
        scroll: getComputedStyle(document.documentElement).scrollBehavior,
        moving: probes
          .map((el) => getComputedStyle(el))
          .filter((s) => s.transitionDuration.split(",").some((d) => parseFloat(d) > 0) || s.animationName !== "none")
          .length,
      };
    });
    expect(motion).toEqual({ scroll: "auto", moving: 0 });
  });
});

test.describe("motion", () => {
  const motionOf = (page: Page) =>
    page.evaluate(() => {
      const probes = [...document.querySelectorAll("[class*=transition]")];
      return {
        scroll: getComputedStyle(document.documentElement).scrollBehavior,
        probes: probes.length,
        moving: probes.filter((el) =>
          getComputedStyle(el)
            .transitionDuration.split(",")
            .some((d) => parseFloat(d) > 0),
        ).length,
      };
    });

  test("the site moves by default and honours the operating system's reduced motion", async ({ page }) => {
    await page.goto("/");
    const normal = await motionOf(page);
    expect(normal.scroll).toBe("smooth");
    expect(normal.probes).toBeGreaterThan(0);
    expect(normal.moving).toBe(normal.probes);

    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await motionOf(page)).toEqual({ scroll: "auto", probes: normal.probes, moving: 0 });
  });
});

test.describe("reset and persistence", () => {
  test("Reset All Settings restores the defaults and removes the stored keys", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await openPanel(page);
    await increase(page).click();
    await increase(page).click();
    for (const s of SWITCHES) await dialog(page).getByRole("switch", { name: s.name }).click();
    expect(await rootClasses(page)).toEqual(["dark", "high-contrast", "highlight-links", "reduce-motion"]);

    await dialog(page).getByRole("button", { name: "Reset All Settings" }).click();
    await expect(sizeValue(page)).toHaveText(/100%/);
    for (const s of SWITCHES) {
      await expect(dialog(page).getByRole("switch", { name: s.name })).toHaveAttribute("aria-checked", "false");
    }
    expect(await rootClasses(page)).toEqual([]);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe("16px");
    for (const key of Object.values(KEYS)) expect(await storedValue(page, key), key).toBeNull();
    await expect(dialog(page).getByRole("status").filter({ hasText: "reset" })).toHaveCount(1);
  });

  test("settings survive a reload and a client-side navigation", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await openPanel(page);
    await increase(page).click();
    await increase(page).click();
    await increase(page).click();
    await dialog(page).getByRole("switch", { name: "Dark Mode" }).click();
    await dialog(page).getByRole("switch", { name: "Highlight Links" }).click();

    await page.reload();
    expect(await rootClasses(page)).toEqual(["dark", "highlight-links"]);
    expect(await rootFontSize(page)).toBe("130%");
    await waitForHydration(page);
    await openPanel(page);
    await expect(sizeValue(page)).toHaveText(/130%/);
    await expect(dialog(page).getByRole("switch", { name: "Dark Mode" })).toHaveAttribute("aria-checked", "true");
    await expect(dialog(page).getByRole("switch", { name: "Highlight Links" })).toHaveAttribute("aria-checked", "true");
    await expect(dialog(page).getByRole("switch", { name: "High Contrast" })).toHaveAttribute("aria-checked", "false");
    await page.keyboard.press("Escape");

    // A client-side navigation keeps <html>, so the settings stay applied.
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    expect(await rootClasses(page)).toEqual(["dark", "highlight-links"]);
    expect(await rootFontSize(page)).toBe("130%");
  });

  test("another tab's change is followed", async ({ page, context }) => {
    await page.goto("/");
    await waitForHydration(page);
    const other = await context.newPage();
    await other.goto("/");
    await waitForHydration(other);
    await openPanel(other);
    await dialog(other).getByRole("switch", { name: "Dark Mode" }).click();
    await expect.poll(() => rootClasses(page)).toEqual(["dark"]);
    await other.close();
  });
});

test.describe("stored values that do not make sense", () => {
  const cases = [
    { stored: { [KEYS.textSize]: "9000" }, size: "150%", shown: "150%", classes: [] },
    { stored: { [KEYS.textSize]: "-20", [KEYS.darkMode]: "true" }, size: "80%", shown: "80%", classes: ["dark"] },
    { stored: { [KEYS.textSize]: "125" }, size: "130%", shown: "130%", classes: [] },
    {
      stored: {
        [KEYS.textSize]: "huge",
        [KEYS.darkMode]: "yes",
        [KEYS.highContrast]: "1",
        [KEYS.highlightLinks]: "{}",
        [KEYS.reduceMotion]: "true",
      },
      size: "",
      shown: "100%",
      classes: ["reduce-motion"],
    },
  ];

  for (const c of cases) {
    test(`are clamped or ignored: ${JSON.stringify(c.stored)}`, async ({ page }) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await storeBeforeLoad(page, c.stored);
      await page.goto("/");
      expect(await rootFontSize(page)).toBe(c.size);
      expect(await rootClasses(page)).toEqual(c.classes);
      await waitForHydration(page);
      await openPanel(page);
      await expect(sizeValue(page)).toHaveText(new RegExp(c.shown));
      expect(await rootClasses(page)).toEqual(c.classes);
      expect(errors).toEqual([]);
    });
  }

  test("a browser that refuses storage still gets a working panel", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    // What a browser with site data blocked does: touching localStorage throws.
    await page.addInitScript(() => {
      Object.defineProperty(window, "localStorage", {
        get() {
          throw new DOMException("The operation is insecure.", "SecurityError");
        },
      });
    });
    await page.goto("/");
    await waitForHydration(page);
    await openPanel(page);
    await dialog(page).getByRole("switch", { name: "Dark Mode" }).click();
    expect(await rootClasses(page)).toEqual(["dark"]);
    await increase(page).click();
    expect(await rootFontSize(page)).toBe("110%");
    await dialog(page).getByRole("button", { name: "Reset All Settings" }).click();
    expect(await rootClasses(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

test.describe("no flash of the default theme", () => {
  const stored = { [KEYS.textSize]: "140", [KEYS.darkMode]: "true", [KEYS.highlightLinks]: "true" };

  test("the settings are on <html> before <body> exists", async ({ page }) => {
    await storeBeforeLoad(page, stored);
    // Record <html> at the moment the parser creates <body>: nothing can be painted before it.
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        if (!document.body) return;
        const root = document.documentElement;
        (window as unknown as { atBody: unknown }).atBody = {
          classes: [...root.classList].sort(),
          fontSize: root.style.fontSize,
        };
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    await page.goto("/");
    expect(await page.evaluate(() => (window as unknown as { atBody: unknown }).atBody)).toEqual({
      classes: ["dark", "highlight-links"],
      fontSize: "140%",
    });
  });

  test("the inline script alone applies them, without the app's JavaScript", async ({ page }) => {
    await storeBeforeLoad(page, stored);
    let blocked = 0;
    await page.route(/\/build\/.*\.js$/, (route) => {
      blocked++;
      return route.abort();
    });
    // A hydrated page: the 404 page (public pages, /contact included, load no React at all:
    // decisions 066, 068).
    await page.goto("/no-such-page");
    expect(blocked).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
    expect(await rootClasses(page)).toEqual(["dark", "highlight-links"]);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe("22.4px");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(2, 6, 23)");
  });

  test("the inline script carries the CSP nonce", async ({ page }) => {
    const response = await page.goto("/");
    const policy = response!.headers()["content-security-policy"];
    const html = await response!.text();
    const inHead = html.slice(0, html.indexOf("</head>"));
    const [, nonceAttribute, body] = /<script nonce="([^"]*)">(\(function\(\)\{try\{[\s\S]*?)<\/script>/.exec(inHead)!;
    // Rendered for this visitor it carries the response's nonce; from the page cache, the
    // policy lists its hash instead (server/page-cache.js).
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    if (nonce) expect(nonceAttribute).toBe(nonce);
    else expect(policy).toContain(`'sha256-${createHash("sha256").update(body).digest("base64")}'`);
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    await storeBeforeLoad(page, { [KEYS.highContrast]: "true" });
    await page.reload();
    expect(await rootClasses(page)).toEqual(["high-contrast"]);
    expect(violations).toEqual([]);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the button is a link to the accessibility statement @phone", async ({ page }) => {
    await page.goto("/");
    const link = page.getByRole("link", { name: "Accessibility settings" });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute("href", "/accessibility");
    await expect(page.getByRole("button", { name: "Accessibility settings" })).toHaveCount(0);
    await link.click();
    await expect(page).toHaveURL(/\/accessibility$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});

test.describe("keyboard only", () => {
  /** Presses Tab until `done` holds for the focused element, checking the focus ring at every stop. */
  async function tabUntil(page: Page, description: string, done: () => Promise<boolean>, limit = 80) {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press("Tab");
      await expectVisibleFocus(page);
      if (await done()) return;
    }
    throw new Error(`Tab never reached ${description}`);
  }

  test("nav, FAQ accordion and panel with Tab, Shift+Tab, Enter, Space and Escape", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    await waitForHydration(page);

    // Nav: skip link first, then the header; Enter follows "Contact".
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
    await expectVisibleFocus(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    const contact = nav.getByRole("link", { name: "Contact", exact: true });
    await tabUntil(page, "the Contact link", () => contact.evaluate((el) => el === document.activeElement));
    await page.keyboard.press("Shift+Tab");
    await expect(nav.getByRole("link", { name: "About", exact: true })).toBeFocused();
    await expectVisibleFocus(page);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/contact$/);

    // FAQ: one item open at a time, each opened and closed from the keyboard.
    const faq = page.locator("details[name='faq']");
    expect(await faq.count()).toBeGreaterThanOrEqual(2);
    const first = faq.nth(0);
    const second = faq.nth(1);
    await tabUntil(page, "the first FAQ question", () =>
      first.locator("summary").evaluate((el) => el === document.activeElement),
    );
    await page.keyboard.press("Enter");
    await expect(first).toHaveJSProperty("open", true);
    await tabUntil(page, "the second FAQ question", () =>
      second.locator("summary").evaluate((el) => el === document.activeElement),
    );
    await page.keyboard.press("Space");
    await expect(second).toHaveJSProperty("open", true);
    await expect(first).toHaveJSProperty("open", false);
    await page.keyboard.press("Enter");
    await expect(second).toHaveJSProperty("open", false);

    // Panel: reached by Tab, opened with Enter, driven with Space, closed with Escape.
    await tabUntil(page, "the accessibility button", () =>
      trigger(page).evaluate((el) => el === document.activeElement),
    );
    await page.keyboard.press("Enter");
    await expect(dialog(page)).toBeVisible();
    await expectVisibleFocus(page);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(increase(page)).toBeFocused();
    await expectVisibleFocus(page);
    await page.keyboard.press("Space");
    await expect(sizeValue(page)).toHaveText(/110%/);
    await page.keyboard.press("Tab");
    await expect(dialog(page).getByRole("switch", { name: "Dark Mode" })).toBeFocused();
    await expectVisibleFocus(page);
    await page.keyboard.press("Space");
    expect(await rootClasses(page)).toEqual(["dark"]);
    await expectVisibleFocus(page);
    await page.keyboard.press("Shift+Tab");
    await expect(increase(page)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog(page)).toBeHidden();
    await expect(trigger(page)).toBeFocused();
    await expectVisibleFocus(page);
    expect(await rootFontSize(page)).toBe("110%");

    // Back up the page with Shift+Tab: focus stays visible in the dark theme too.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Shift+Tab");
      await expectVisibleFocus(page);
    }
  });

  test("the small-screen menu works from the keyboard at 150% text", async ({ page }) => {
    await storeBeforeLoad(page, { [KEYS.textSize]: "150" });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    await waitForHydration(page);
    // At 150% the desktop nav does not fit 1280 px: the menu takes over, nothing scrolls sideways.
    const menu = page.getByTestId("mobile-menu");
    await expect(menu).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await tabUntil(page, "the menu toggle", () =>
      menu.locator("summary").evaluate((el) => el === document.activeElement),
    );
    await page.keyboard.press("Enter");
    const mobileNav = page.locator("#site-navigation");
    await expect(mobileNav).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(mobileNav.getByRole("link", { name: "Home", exact: true })).toBeFocused();
    await expectVisibleFocus(page);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/services$/);
    await expect(mobileNav).toBeHidden();
  });
});
