import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll } from "vitest";
import { connect } from "../../db/connection";
import { migrateToLatest } from "../../db/migrator";
import { ensureBuild } from "./ensure-build";
import { createTestDatabase, testServerUrl, type TestDatabase } from "./test-database";

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

export type ScriptResult = { code: number; stdout: string; stderr: string };

/**
 * A database of its own for a built script run in a child process (`node build/scripts/...`,
 * what production runs; the build is made first when stale): a fresh
 * PostgreSQL database when the tests have a server, else a PGlite folder started from the
 * migrated template (an initdb in the child costs seconds). `env` is the child's environment.
 */
export function useScriptDatabase(options: { prefix: string; env?: Record<string, string>; unset?: string[] }) {
  const state: { env: NodeJS.ProcessEnv; serverDatabase?: TestDatabase; dataDir?: string } = {
    env: { ...process.env },
  };

  beforeAll(async () => {
    ensureBuild();
    const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent", ...options.env };
    for (const name of ["DATABASE_URL", ...(options.unset ?? [])]) delete base[name];
    const serverUrl = testServerUrl();
    if (serverUrl) {
      state.serverDatabase = await createTestDatabase();
      const url = new URL(serverUrl);
      url.pathname = `/${state.serverDatabase.name}`;
      state.env = { ...base, DATABASE_URL: url.toString() };
    } else {
      state.dataDir = mkdtempSync(path.join(os.tmpdir(), `${options.prefix}-`));
      state.env = { ...base, DATA_DIR: state.dataDir };
      const template = process.env.PGLITE_TEMPLATE;
      if (template) {
        const pglite = new PGlite(path.join(state.dataDir, "pglite"), {
          loadDataDir: new Blob([readFileSync(template)]),
        });
        await pglite.waitReady;
        await pglite.close();
      }
    }
    // A stale build is rebuilt first (ensureBuild): a minute on a busy machine.
  }, 180_000);

  afterAll(async () => {
    await state.serverDatabase?.close();
    if (state.dataDir) rmSync(state.dataDir, { recursive: true, force: true });
  });

  return {
    /** The child's environment (available once beforeAll has run). */
    get env() {
      return state.env;
    },
    /** Runs `node build/scripts/<name>.js ...args` from the repository root; never throws on a non-zero exit. */
    async run(name: string, args: string[] = [], env: NodeJS.ProcessEnv = state.env): Promise<ScriptResult> {
      try {
        const script = path.join(root, "build/scripts", `${name}.js`);
        const { stdout, stderr } = await execFileAsync(process.execPath, [script, ...args], {
          cwd: root,
          env,
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as ScriptResult;
        return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
      }
    },
    /** Opens the script's database for a moment (a PGlite folder cannot be open twice at once). */
    async withDb<T>(work: (db: TestDatabase["db"]) => Promise<T>): Promise<T> {
      if (state.serverDatabase) return work(state.serverDatabase.db);
      const handle = connect({ dataDir: path.join(state.dataDir!, "pglite") });
      try {
        await migrateToLatest(handle.db);
        return await work(handle.db);
      } finally {
        await handle.close();
      }
    },
  };
}
