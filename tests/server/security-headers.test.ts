import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAppServer, type AppServer } from "../helpers/app-server";

// server.js's headers, on the real server: HSTS preload is the owner's choice, and forms may
// only leave the site for the sign-in providers and the booking calendars.
describe("security headers of server.js", () => {
  let plain: AppServer;
  let preload: AppServer;
  beforeAll(async () => {
    [plain, preload] = await Promise.all([
      startAppServer({ SITE_URL: "https://www.example.com" }),
      startAppServer({
        SITE_URL: "https://www.example.com",
        HSTS_PRELOAD: "true",
        FORM_ACTION_ORIGINS: "https://book.example.org",
      }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([plain?.stop(), preload?.stop()]);
  });

  test("HSTS is sent without preload unless HSTS_PRELOAD=true", async () => {
    const a = await fetch(`${plain.url}/robots.txt`);
    expect(a.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    const b = await fetch(`${preload.url}/robots.txt`);
    expect(b.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains; preload");
  });

  test("CSP form-action names its origins instead of every https site", async () => {
    const csp = (await fetch(`${plain.url}/robots.txt`)).headers.get("content-security-policy") ?? "";
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
    const extra = (await fetch(`${preload.url}/robots.txt`)).headers.get("content-security-policy") ?? "";
    expect(extra).toMatch(/form-action [^;]*https:\/\/book\.example\.org/);
  });
});
