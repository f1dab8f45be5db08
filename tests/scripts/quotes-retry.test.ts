import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "../../db/connection";
import { migrateToLatest } from "../../db/migrator";
import { quoteDedupeKey } from "~/models/quote-request.server";
import { createQuoteSchema } from "~/utils/quote-schema";
import { goodQuote } from "../helpers/quote-form";
import { startTestSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { createTestDatabase, testServerUrl, type TestDatabase } from "../helpers/test-database";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

/** The real script against a database of its own (PostgreSQL when configured, else a PGlite folder). */
let scriptEnv: NodeJS.ProcessEnv;
let serverDatabase: TestDatabase | undefined;
let dataDir: string | undefined;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent", MAIL_FROM: "quotes@example.com" };
  delete base.DATABASE_URL;
  delete base.SMTP_URL;
  const serverUrl = testServerUrl();
  if (serverUrl) {
    serverDatabase = await createTestDatabase();
    const url = new URL(serverUrl);
    url.pathname = `/${serverDatabase.name}`;
    scriptEnv = { ...base, DATABASE_URL: url.toString() };
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "quotes-retry-"));
    scriptEnv = { ...base, DATA_DIR: dataDir };
    // Start the folder from the migrated template: an initdb in the child costs seconds.
    const template = process.env.PGLITE_TEMPLATE;
    if (template) {
      const pglite = new PGlite(path.join(dataDir, "pglite"), { loadDataDir: new Blob([readFileSync(template)]) });
      await pglite.waitReady;
      await pglite.close();
    }
  }
});

afterAll(async () => {
  await smtp.stop();
  await serverDatabase?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function retryScript(env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await run(path.join(root, "node_modules/.bin/tsx"), ["scripts/quotes-retry.ts"], {
      cwd: root,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function withScriptDb<T>(work: (db: TestDatabase["db"]) => Promise<T>): Promise<T> {
  if (serverDatabase) return work(serverDatabase.db);
  const handle = connect({ dataDir: path.join(dataDir!, "pglite") });
  try {
    await migrateToLatest(handle.db);
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

// Each case starts tsx and opens the database in a child process: slow on a busy machine.
describe("npm run quotes:retry", { timeout: 120_000 }, () => {
  it("refuses to run without SMTP_URL", async () => {
    const result = await retryScript(scriptEnv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SMTP_URL is not set");
  });

  it("sends every unsent notification, even past the automatic attempt limit, and marks it sent", async () => {
    const input = createQuoteSchema().parse(goodQuote({ name: "Script Retry" }));
    await withScriptDb((db) =>
      db
        .insertInto("quote_requests")
        .values({
          name: input.name,
          phone: input.phone,
          email: input.email,
          address: input.address,
          zip: input.zip,
          dogs: input.dogs,
          yard_size: input.yardSize,
          service: input.service,
          dedupe_key: quoteDedupeKey(input),
          notification_status: "failed",
          notification_attempts: 20,
          notification_error: "connect ECONNREFUSED",
        })
        .execute()
    );
    const result = await retryScript({ ...scriptEnv, SMTP_URL: smtp.url });
    expect(result.stdout).toContain("Quote notifications sent: 1, failed: 0.");
    expect(result.code).toBe(0);
    const [owner] = await smtp.waitForMessages(2);
    expect(owner.subject).toContain("Script Retry");
    const row = await withScriptDb((db) => db.selectFrom("quote_requests").selectAll().executeTakeFirstOrThrow());
    expect(row).toMatchObject({ notification_status: "sent", notification_attempts: 21, notification_error: null });
  });
});
