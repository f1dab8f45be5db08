import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import url from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_A_PRODUCTION_BUILD, productionBuildProblem, writeBuildInfo } from "../../server/build-info.js";
import { SERVER_HOOKS, serverHooksOf } from "../../server/server-hooks.js";
import { BUILD_FILE, ensureBuild, staleBuildReason } from "../helpers/ensure-build";

/**
 * What server.js does before it listens (decision 014): it serves only a production build
 * (`npm run build`'s marker), it checks the build's one object of hooks, and importing the build
 * starts nothing: background work begins with serverHooks.startBackgroundWork().
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SERVER = path.join(ROOT, "server.js");
let workDir: string;

beforeAll(() => {
  ensureBuild();
  workDir = mkdtempSync(path.join(os.tmpdir(), "server-start-"));
}, 180_000);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** `node server.js` in `cwd` (whose build/ it serves) until it listens or exits. */
function startServer(cwd: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [SERVER], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      ALLOW_EMBEDDED_IN_PRODUCTION: "true",
      SESSION_SECRET: "s".repeat(40),
      DATA_DIR: path.join(cwd, "data"),
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise<{ outcome: "listening" | "exited"; code: number | null; output: string }>((resolve) => {
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("server.listening")) {
        child.kill("SIGTERM");
        resolve({ outcome: "listening", code: null, output });
      }
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("exit", (code) => resolve({ outcome: "exited", code, output }));
  });
}

/** A project folder whose build/ is a stand-in module exporting `serverHooks`, marked production. */
function fakeProject(name: string, hooksSource: string) {
  const dir = path.join(workDir, name);
  mkdirSync(path.join(dir, "build"), { recursive: true });
  mkdirSync(path.join(dir, "public/build/browser"), { recursive: true });
  writeFileSync(path.join(dir, "public/build/browser/manifest.json"), "{}\n");
  writeFileSync(
    path.join(dir, "build/index.js"),
    `export const serverHooks = ${hooksSource};\n` +
      `export const entry = { module: { serverHooks } };\n` +
      `export const routes = {};\nexport const assets = { routes: {} };\nexport const mode = "production";\n`,
  );
  writeBuildInfo(dir, { mode: "production", inputs: "test" });
  return dir;
}

describe("npm start serves only a production build", () => {
  it("the real build is marked production and current", () => {
    expect(staleBuildReason()).toBeNull();
    expect(productionBuildProblem(ROOT)).toBeNull();
  });

  it("refuses build/ without the marker (what `npm run dev` leaves), naming npm run build", async () => {
    const dir = path.join(workDir, "dev-build");
    cpSync(path.join(ROOT, "build"), path.join(dir, "build"), { recursive: true });
    cpSync(path.join(ROOT, "public/build/browser"), path.join(dir, "public/build/browser"), { recursive: true });
    rmSync(path.join(dir, "build/build-info.json"));
    const result = await startServer(dir);
    expect(result.outcome).toBe("exited");
    expect(result.code).toBe(1);
    expect(result.output).toContain(NOT_A_PRODUCTION_BUILD);
    expect(result.output).toContain("npm run build");
    expect(existsSync(path.join(dir, "data"))).toBe(false); // nothing started, no database made
  });

  it("refuses a marked build whose bundle was rewritten since (`npm run build`, then `npm run dev`)", async () => {
    const dir = fakeProject(
      "rewritten",
      "{ onContentChanged() {}, runWithRequestContext() {}, resourceErrorResponse() {}, startBackgroundWork() {} }",
    );
    writeFileSync(path.join(dir, "build/index.js"), "export const mode = 'development';\n", { flag: "a" });
    expect(staleBuildReason(dir)).toMatch(/rewritten/);
    const result = await startServer(dir);
    expect(result.outcome).toBe("exited");
    expect(result.output).toContain("run `npm run build`");
  });

  it("starts on a marked build with every hook, and calls startBackgroundWork once", async () => {
    const dir = fakeProject(
      "complete",
      `{ onContentChanged() {}, runWithRequestContext(_r, fn) { return fn(); }, resourceErrorResponse(r) { return r; },
         startBackgroundWork() { console.log("background work started"); } }`,
    );
    const result = await startServer(dir);
    expect(result.outcome).toBe("listening");
    expect(result.output.match(/background work started/g)).toHaveLength(1);
  });
});

describe("the build's server hooks", () => {
  it("the real build exports every hook in one object", async () => {
    const build = await import(/* @vite-ignore */ url.pathToFileURL(BUILD_FILE).href);
    const hooks = serverHooksOf(build);
    expect(Object.keys(SERVER_HOOKS).every((name) => typeof hooks[name] === "function")).toBe(true);
  });

  it("a missing hook stops the server before it listens, naming the hook", async () => {
    const dir = fakeProject(
      "missing-hook",
      "{ onContentChanged() {}, runWithRequestContext() {}, startBackgroundWork() { console.log('started') } }",
    );
    const result = await startServer(dir);
    expect(result.outcome).toBe("exited");
    expect(result.code).toBe(1);
    expect(result.output).toContain("lacks resourceErrorResponse");
    expect(result.output).not.toContain("started");
    expect(result.output).not.toContain("server.listening");
  });

  it("a renamed hook is missing too (no optional call that silently does nothing)", () => {
    const hooks = {
      onContentChanged() {},
      runWithRequestContext() {},
      resourceErrorResponse() {},
      startBackground() {},
    };
    expect(() => serverHooksOf({ entry: { module: { serverHooks: hooks } } })).toThrow(/lacks startBackgroundWork/);
    expect(() => serverHooksOf({ entry: { module: {} } })).toThrow(
      /onContentChanged.*runWithRequestContext.*resourceErrorResponse.*startBackgroundWork/,
    );
  });
});

/**
 * Imports the real build in a fresh process and reports the timers and sockets created, before
 * and after startBackgroundWork(). An async hook sees unref'd timers too.
 */
function importBuildInChild(dataDir: string) {
  const script = `
    import { createHook } from "node:async_hooks";
    const created = [];
    createHook({ init(_id, type) { if (type === "Timeout" || type === "TCPWRAP") created.push(type); } }).enable();
    const build = await import(${JSON.stringify(BUILD_FILE)});
    const afterImport = [...created];
    build.entry.module.serverHooks.startBackgroundWork();
    // The queue starts after the migrations: its timers are counted once it has.
    setTimeout(() => {
      const afterStart = [...created];
      console.log(JSON.stringify({ afterImport, afterStart }));
      process.exit(0);
    }, 8000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      ALLOW_EMBEDDED_IN_PRODUCTION: "true",
      SESSION_SECRET: "s".repeat(40),
      DATA_DIR: dataDir,
      SMTP_URL: "smtp://127.0.0.1:1",
      LOG_LEVEL: "error",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c.toString()));
  child.stderr.on("data", (c) => (output += c.toString()));
  return new Promise<string>((resolve) => child.on("exit", () => resolve(output)));
}

describe("background work starts by an explicit call, not by importing the build", () => {
  it("importing the build starts no timer, socket or migration; startBackgroundWork() starts them", async () => {
    const dataDir = path.join(workDir, "import-data");
    const output = await importBuildInChild(dataDir);
    const line = output.split("\n").find((l) => l.startsWith("{"));
    expect(line, output).toBeDefined();
    const { afterImport, afterStart } = JSON.parse(line!) as { afterImport: string[]; afterStart: string[] };
    expect(afterImport).toEqual([]);
    // The job queue's (decision 114): its workers' polls, maintenance, cron monitor, the round's first run.
    expect(afterStart.filter((type) => type === "Timeout").length).toBeGreaterThanOrEqual(3);
    // Migrations ran on PGlite under DATA_DIR once started.
    expect(existsSync(path.join(dataDir, "pglite")) && readdirSync(path.join(dataDir, "pglite")).length).toBeTruthy();
  }, 60_000);
});
