// @vitest-environment jsdom
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The server's toast (decision 075): what StaticToast renders, and what its plain script,
// static-toast.browser.ts, does with that markup.
const SCRIPT = "/build/browser/static-toast-TEST.js";
const remix = vi.hoisted(() => ({ staticPage: true }));
vi.mock("@remix-run/react", () => ({
  useMatches: () => [
    { id: "root", data: { preview: false, toastScript: "/build/browser/static-toast-TEST.js" } },
    { id: "routes/auth", handle: remix.staticPage ? { staticPage: true } : undefined, data: {} },
  ],
  useRouteLoaderData: (id: string) => (id === "root" ? { toastScript: "/build/browser/static-toast-TEST.js" } : null),
}));

const { StaticToast } = await import("./flash-toast");

const SIGNED_OUT = {
  type: "success",
  message: "Signed out",
  description: "You've been logged out successfully.",
} as const;
const FAILED = { type: "error", message: "Login failed", description: "Invalid email or password" } as const;

describe("StaticToast's markup", () => {
  afterEach(() => void (remix.staticPage = true));

  it("is a live region with its close button beside it, hidden until the script runs", () => {
    document.body.innerHTML = renderToStaticMarkup(<StaticToast toast={SIGNED_OUT} />);
    const region = document.querySelector("[data-testid=flash-toast]")!;
    expect(region.getAttribute("role")).toBe("status");
    expect(region.textContent).toBe("Signed outYou've been logged out successfully.");
    const button = document.querySelector<HTMLButtonElement>("[data-toast-close]")!;
    expect(button.hidden).toBe(true);
    expect(button.type).toBe("button");
    expect(button.textContent).toBe("Close notification");
    // Revealing the button inside the live region would be announced: it is outside.
    expect(region.contains(button)).toBe(false);
    expect(document.querySelector(`script[type=module][src="${SCRIPT}"]`)).not.toBeNull();
  });

  it("is an alert for a failure", () => {
    document.body.innerHTML = renderToStaticMarkup(<StaticToast toast={FAILED} />);
    expect(document.querySelector("[data-testid=flash-toast]")!.getAttribute("role")).toBe("alert");
  });

  it("carries no script on a hydrated page (sonner takes over there)", () => {
    remix.staticPage = false;
    document.body.innerHTML = renderToStaticMarkup(<StaticToast toast={SIGNED_OUT} />);
    expect(document.querySelector("script")).toBeNull();
    expect(document.querySelector<HTMLButtonElement>("[data-toast-close]")!.hidden).toBe(true);
  });

  it("carries no script inside a running Remix app, even on a static route (a client-side navigation, 077)", () => {
    const remixWindow = window as unknown as { __remixContext?: unknown };
    remixWindow.__remixContext = {};
    try {
      document.body.innerHTML = renderToStaticMarkup(<StaticToast toast={SIGNED_OUT} />);
      expect(document.querySelector("script")).toBeNull();
    } finally {
      delete remixWindow.__remixContext;
    }
    document.body.innerHTML = renderToStaticMarkup(<StaticToast toast={SIGNED_OUT} />);
    expect(document.querySelector(`script[type=module][src="${SCRIPT}"]`)).not.toBeNull();
  });
});

describe("static-toast.browser.ts", () => {
  /** A page: something to focus, the main content, the toasts; then the script runs. */
  async function page(...toasts: (typeof SIGNED_OUT | typeof FAILED)[]) {
    document.body.innerHTML =
      '<button id="before">Before</button><main id="main-content" tabindex="-1"><h1>Page</h1></main>' +
      toasts.map((toast) => renderToStaticMarkup(<StaticToast toast={toast} />)).join("");
    vi.resetModules();
    await import("./static-toast.browser");
    return {
      toasts: () => document.querySelectorAll("[data-static-toast]"),
      buttons: () => [...document.querySelectorAll<HTMLButtonElement>("[data-toast-close]")],
    };
  }
  const click = (button: HTMLElement, detail: number) =>
    button.dispatchEvent(new MouseEvent("click", { bubbles: true, detail }));

  beforeEach(() => (document.body.innerHTML = ""));

  it("reveals every toast's close button", async () => {
    const { buttons } = await page(SIGNED_OUT, FAILED);
    expect(buttons().map((button) => button.hidden)).toEqual([false, false]);
  });

  it("closes a toast on click; focus goes back to where it was before the toast", async () => {
    const { toasts, buttons } = await page(SIGNED_OUT);
    document.getElementById("before")!.focus();
    buttons()[0].focus();
    click(buttons()[0], 0); // Enter or Space
    expect(toasts()).toHaveLength(0);
    expect(document.activeElement?.id).toBe("before");
  });

  it("sends focus to the main content when nothing outside had it", async () => {
    const { toasts, buttons } = await page(FAILED);
    buttons()[0].focus();
    click(buttons()[0], 1);
    expect(toasts()).toHaveLength(0);
    expect(document.activeElement?.id).toBe("main-content");
  });

  it("leaves focus alone when it was not in the toast", async () => {
    const { toasts, buttons } = await page(SIGNED_OUT, FAILED);
    document.getElementById("before")!.focus();
    click(buttons()[1], 1); // a pointer that does not focus buttons (Safari)
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0].textContent).toContain("Signed out");
    expect(document.activeElement?.id).toBe("before");
  });

  it("puts the live region's content back as new nodes after the page has loaded, to be announced", async () => {
    vi.useFakeTimers();
    try {
      const { toasts } = await page(SIGNED_OUT);
      const region = toasts()[0].querySelector("[role=status]")!;
      const before = [...region.childNodes];
      vi.advanceTimersByTime(400);
      expect(region.firstChild).toBe(before[0]);
      vi.advanceTimersByTime(200);
      expect(region.childNodes).toHaveLength(before.length);
      expect(region.firstChild).not.toBe(before[0]);
      expect(region.innerHTML).toBe(before.map((node) => (node as Element).outerHTML).join(""));
    } finally {
      vi.useRealTimers();
    }
  });

  it("closes on Escape inside the toast, not elsewhere; never by itself", async () => {
    vi.useFakeTimers();
    try {
      const { toasts, buttons } = await page(SIGNED_OUT);
      document.getElementById("before")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      vi.advanceTimersByTime(10 * 60_000);
      expect(toasts()).toHaveLength(1);
      buttons()[0].focus();
      buttons()[0].dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      expect(toasts()).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
