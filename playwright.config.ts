import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { findChromium } from "./scripts/find-chromium.js";

// Each checkout gets its own port, so that test runs in two worktrees never meet.
const checkoutOffset = [...process.cwd()].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 500, 7);
const PORT = Number(process.env.E2E_PORT || 3210 + checkoutOffset);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
// Every e-mail the test server sends goes to the run's one SMTP server on this port, started by
// tests/e2e/global-setup.ts, which writes each message to E2E_MAIL_DIR for the specs to read
// (waitForMail in tests/e2e/helpers.ts). Workers read both from the environment.
const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT || PORT + 1000);
process.env.E2E_SMTP_PORT = String(E2E_SMTP_PORT);
const mailDir = process.env.E2E_MAIL_DIR || mkdtempSync(path.join(os.tmpdir(), "e2e-mail-"));
process.env.E2E_MAIL_DIR = mailDir; // workers load this file again: keep one folder
const executablePath = (await findChromium()) ?? undefined;

// A fresh PGlite folder per run unless CI points the server at a fresh PostgreSQL database.
const dataDir = process.env.E2E_DATA_DIR || mkdtempSync(path.join(os.tmpdir(), "e2e-data-"));
process.env.E2E_DATA_DIR = dataDir; // workers load this file again: keep one folder

const launchOptions = {
  executablePath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "./tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    headless: true,
    launchOptions,
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], launchOptions } },
    { name: "phone", use: { ...devices["Pixel 7"], launchOptions }, grep: /@phone/ },
  ],
  webServer: {
    // Each worker's own admin accounts (tests/e2e/test-admins.ts) are written before the server
    // opens the database: a PGlite folder admits one process at a time.
    command: "npx tsx tests/e2e/seed-test-admins.ts && node ./server.js",
    url: `${BASE_URL}/resources/healthcheck`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      SITE_URL: BASE_URL,
      DATA_DIR: dataDir,
      SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
      SEED_DEV_DATA: "true",
      E2E_SEED_TEST_ADMINS: "1",
      // The production build on PGlite, folder storage and seeded accounts: test-only (decision 050).
      ALLOW_EMBEDDED_IN_PRODUCTION: "true",
      ENABLE_TEST_ROUTES: "1",
      // The bookings journey signs its Cal.com deliveries with this (tests/e2e/bookings.spec.ts).
      CAL_COM_WEBHOOK_SECRET: "e2e-cal-com-webhook-secret-0123456789",
      // Each test picks its own client with X-Forwarded-For, as behind one trusted proxy.
      TRUST_PROXY: "1",
      // The plan visit generator and billing run at once, as they did before decision 099's delay.
      SCHEDULED_WORK_DELAY_SECONDS: "0",
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      MAIL_FROM: "Swift Scoop <accounts@example.com>",
      LOG_LEVEL: process.env.E2E_LOG_LEVEL || "warn",
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
  },
});
