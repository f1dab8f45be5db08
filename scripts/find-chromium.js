// Finds a Chromium for Playwright: CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's own.
import { existsSync } from "node:fs";

export async function findChromium() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
  ];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  try {
    const { chromium } = await import("playwright-core");
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // playwright-core without a downloaded browser
  }
  return null;
}
