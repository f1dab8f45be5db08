import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAppServer, type AppServer } from "../helpers/app-server";

// server.js's headers, on the real server: HSTS preload is the owner's choice, and forms may
// only leave the site for the sign-in providers and the booking calendars.
// Headers need no database: an address where none answers keeps two embedded PGlite
// instances (hundreds of MB each) off a busy machine.
const NO_DATABASE = "postgres://nobody@127.0.0.1:9/none";
// A fresh connection per request: a kept-alive one may be closed by the server as it is reused.
const get = (url: string) => fetch(url, { headers: { Connection: "close" } });

describe("security headers of server.js", () => {
  let plain: AppServer;
  let preload: AppServer;
  beforeAll(async () => {
    [plain, preload] = await Promise.all([
      startAppServer({ SITE_URL: "https://www.example.com", DATABASE_URL: NO_DATABASE }),
      startAppServer({
        SITE_URL: "https://www.example.com",
        DATABASE_URL: NO_DATABASE,
        HSTS_PRELOAD: "true",
        FORM_ACTION_ORIGINS: "https://book.example.org",
      }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([plain?.stop(), preload?.stop()]);
  });

  test("HSTS is sent without preload unless HSTS_PRELOAD=true", async () => {
    const a = await get(`${plain.url}/robots.txt`);
    expect(a.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    const b = await get(`${preload.url}/robots.txt`);
    expect(b.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains; preload");
  });

  test("Permissions-Policy lets this site, and only it, ask for the position; every other feature is off", async () => {
    // Decision 108: with geolocation=() the browser refused the position before the page asked,
    // so "Use my current location" could never work. A page and a static file: every response.
    for (const path of ["/robots.txt", "/favicon.svg"]) {
      const header = (await get(`${plain.url}${path}`)).headers.get("permissions-policy") ?? "";
      const features = Object.fromEntries(
        header.split(",").map((entry) => entry.trim().split("=") as [string, string]),
      );
      expect(features).toEqual({
        camera: "()",
        microphone: "()",
        geolocation: "(self)",
        payment: "()",
        usb: "()",
        "interest-cohort": "()",
        "browsing-topics": "()",
      });
    }
  });

  test("CSP form-action names its origins instead of every https site", async () => {
    const csp = (await get(`${plain.url}/robots.txt`)).headers.get("content-security-policy") ?? "";
    const formAction = csp
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("form-action"))!
      .split(/\s+/)
      .slice(1);
    expect(formAction).toContain("'self'");
    expect(formAction).toContain("https://accounts.google.com");
    expect(formAction).toContain("https://calendly.com");
    expect(formAction).not.toContain("https:");
    expect(formAction).not.toContain("http:");
    const extra = (await get(`${preload.url}/robots.txt`)).headers.get("content-security-policy") ?? "";
    expect(extra).toMatch(/form-action [^;]*https:\/\/book\.example\.org/);
  });
});
