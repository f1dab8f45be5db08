// Makes sure the browser tests have a Chromium. Never downloads one of Playwright's builds:
// on Debian it installs the distribution's `chromium` package when it can.
import { execSync } from "node:child_process";
import { findChromium } from "./find-chromium.js";

let found = await findChromium();
if (found) {
  console.log(`Chromium: ${found}`);
} else {
  const canApt =
    process.getuid?.() === 0 &&
    (() => {
      try {
        execSync("command -v apt-get", { stdio: "ignore" });
        return true;
      } catch {
        return false;
      }
    })();
  if (!canApt) {
    console.error("No Chromium found. Install one (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.");
    process.exit(1);
  }
  console.log("No Chromium found: installing Debian's chromium package...");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", {
    stdio: "inherit",
  });
  found = await findChromium();
  if (!found) {
    console.error("Installing chromium did not provide a browser.");
    process.exit(1);
  }
  console.log(`Chromium: ${found}`);
}
