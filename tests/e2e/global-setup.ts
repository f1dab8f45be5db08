import { startMailCatcher } from "../helpers/mail-catcher";

/**
 * Runs once in Playwright's main process, after the test server is up (webServer starts first)
 * and before any test: the run's one SMTP server, on the port the test server mails to
 * (playwright.config.ts). Every spec reads the messages from E2E_MAIL_DIR with `waitForMail`
 * (tests/e2e/helpers.ts), so no spec opens the port itself and two never fight for it.
 */
export default async function globalSetup() {
  const catcher = await startMailCatcher({
    port: Number(process.env.E2E_SMTP_PORT),
    dir: process.env.E2E_MAIL_DIR!,
  });
  return () => catcher.stop();
}
