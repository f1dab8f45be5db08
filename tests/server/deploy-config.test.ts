import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { beforeAll, describe, expect, it } from "vitest";
import { imageNodeArgs } from "../helpers/app-server";
import { ensureBuild } from "../helpers/ensure-build";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
type PackageJson = {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const pkg = JSON.parse(read("package.json")) as PackageJson;

type FlyConfig = {
  deploy: { release_command: string };
  env: Record<string, string>;
  http_service: { internal_port: number; checks: { path: string; method: string }[] };
};
const fly = parseToml(read("fly.toml")) as unknown as FlyConfig;

/** The Dockerfile's instructions of the final stage, joined over line continuations. */
function finalStage() {
  const lines = read("Dockerfile").replace(/\\\n/g, " ").split("\n");
  const last = lines
    .map((l) => l.trim())
    .lastIndexOf(
      lines
        .map((l) => l.trim())
        .filter((l) => /^FROM\b/i.test(l))
        .at(-1)!,
    );
  return lines
    .slice(last)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

describe("fly.toml and the Dockerfile agree with the code", () => {
  it("the release command is an npm script that runs a built file the image ships, without tsx", () => {
    const match = /^npm run ([\w:-]+)$/.exec(fly.deploy.release_command);
    expect(match, fly.deploy.release_command).toBeTruthy();
    const script = pkg.scripts[match![1]];
    // e.g. "node ./build/scripts/migrate.js": plain JavaScript from `npm run build` (the test
    // below reads the built files), which the final stage copies from the build stage.
    const [runner, file] = script.split(/\s+/);
    expect(runner).toBe("node");
    expect(file.replace(/^\.\//, "")).toMatch(/^build\/scripts\/[\w-]+\.js$/);
    expect(finalStage()).toContain("COPY --from=build /app/build /app/build");
    // The production scripts all run the same way; tsx is a development tool only.
    for (const name of [
      "db:migrate",
      "admin:grant",
      "admin:revoke",
      "outbox:send",
      "visits:generate",
      "billing:run",
      "billing:collect",
    ]) {
      expect(pkg.scripts[name]).toMatch(/^node \.\/build\/scripts\//);
    }
    expect(pkg.dependencies.tsx).toBeUndefined();
  });

  it("the production install leaves out the Studio and the development-only packages", () => {
    for (const name of ["sanity", "@sanity/visual-editing", "@sanity/preview-url-secret", "chokidar", "tsx"]) {
      expect(pkg.dependencies[name], name).toBeUndefined();
    }
    // PGlite is imported only without DATABASE_URL, which production requires.
    expect(pkg.dependencies["@electric-sql/pglite"]).toBeUndefined();
    expect((pkg as { workspaces?: unknown }).workspaces).toBeUndefined();
    // The studio is a package of its own; the app keeps `sanity` only as a development
    // dependency, for the test of the dataset against the studio's schema: the same version.
    const studio = JSON.parse(read("studio/package.json")) as PackageJson;
    expect(pkg.devDependencies.sanity).toBe(studio.dependencies.sanity);
    const deps = read("Dockerfile").replace(/\\\n/g, " ");
    expect(deps).toMatch(/RUN npm ci --omit=dev [^\n]*&& node scripts\/prune-dev-optional\.mjs/);
  });

  it("the health check names the health route and the port is the one the server listens on", () => {
    const [check] = fly.http_service.checks;
    expect(check.method).toBe("GET");
    expect(check.path).toBe("/resources/healthcheck");
    expect(() => read("app/routes/resources.healthcheck.ts")).not.toThrow();
    expect(String(fly.http_service.internal_port)).toBe(fly.env.PORT);
    expect(finalStage()).toContain(`EXPOSE ${fly.http_service.internal_port}`);
    expect(fly.env.NODE_ENV).toBe("production");
  });

  it("the image starts the server file that exists, as the unprivileged user, with writable data paths", () => {
    const stage = finalStage();
    const cmd = stage.find((l) => /^CMD\b/.test(l))!;
    const argv = JSON.parse(cmd.replace(/^CMD\s+/, "")) as string[];
    const file = argv.at(-1)!;
    expect(argv[0]).toBe("node");
    expect(() => read(file)).not.toThrow();
    expect(stage.some((l) => new RegExp(`^COPY .*\\b${file.replace(".", "\\.")}\\b`).test(l))).toBe(true);
    // npm start runs the same file.
    expect(pkg.scripts.start).toContain(`node ./${file}`);
    // The flags before it are Node's own, and this Node takes them (a typo would stop every machine).
    const flags = argv.slice(1, -1);
    expect(flags).toEqual(imageNodeArgs());
    for (const flag of flags) expect(flag).toMatch(/^--[a-z0-9-]+(=\S+)?$/);
    expect(spawnSync(process.execPath, [...flags, "-e", "0"], { encoding: "utf8" })).toMatchObject({
      status: 0,
      stderr: "",
    });
    const user = stage.filter((l) => /^USER\b/.test(l)).at(-1);
    expect(user).toBe("USER node");
    const dataDir = stage.find((l) => /^ENV DATA_DIR=/.test(l))?.split("=")[1];
    expect(dataDir).toBeTruthy();
    expect(stage.some((l) => /^RUN\b/.test(l) && l.includes(`chown -R node:node ${dataDir}`))).toBe(true);
    // USER comes after the chown, so the app cannot write anywhere else.
    expect(stage.findIndex((l) => l === "USER node")).toBeGreaterThan(stage.findIndex((l) => l.includes("chown")));
  });
});

/** The npm package an import specifier names ("@scope/name/sub" → "@scope/name"). */
function packageOf(specifier: string) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The npm packages a built file imports: statically, and through import(). */
function importsOf(file: string) {
  const code = read(file);
  const named = (pattern: RegExp) =>
    new Set(
      [...code.matchAll(pattern)]
        .map((m) => m[1] ?? m[2])
        .filter((s) => !s.startsWith(".") && !s.startsWith("node:"))
        .map(packageOf),
    );
  return {
    atStart: named(/^(?:import|export)\b[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gm),
    later: named(/\bimport\(\s*"([^"]+)"\s*\)/g),
  };
}

describe("the production install holds what the built server and scripts import", () => {
  beforeAll(() => ensureBuild(), 180_000);

  // Imported only where production never goes: PGlite without DATABASE_URL (which production
  // requires), Sanity's overlays in the browser's preview mode, the file watcher of `npm run dev`.
  const devOnlyLater = new Set(["@electric-sql/pglite", "kysely-pglite-dialect", "@sanity/visual-editing", "chokidar"]);
  const serverFiles = readdirSync(path.join(ROOT, "server"))
    .filter((name) => name.endsWith(".js") && !name.includes(".test."))
    .map((name) => `server/${name}`);

  it.each([
    "server.js",
    ...serverFiles,
    "build/index.js",
    "build/scripts/migrate.js",
    "build/scripts/admin-role.js",
    "build/scripts/outbox-send.js",
    "build/scripts/visits-generate.js",
    "build/scripts/billing-run.js",
    "build/scripts/billing-collect.js",
  ])("%s", (file) => {
    const { atStart, later } = importsOf(file);
    // A bundle with no imports at all would mean the pattern no longer reads it.
    if (file.startsWith("build/")) expect(atStart.size).toBeGreaterThan(0);
    const missing = [...atStart, ...[...later].filter((name) => !devOnlyLater.has(name))].filter(
      (name) => !pkg.dependencies[name],
    );
    expect(missing).toEqual([]);
  });
});

/** Starts `node server.js` and resolves with how it ended (or "listening"). */
function startServer(
  env: Record<string, string>,
): Promise<{ outcome: "exited" | "listening"; code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["server.js"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        ...env,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
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

describe("production guard-rails at start", () => {
  let dataDir: string;
  beforeAll(() => {
    ensureBuild();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "guard-rails-"));
    return () => rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  const production = () => ({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(40), DATA_DIR: dataDir });

  it("refuses to start on PGlite, naming DATABASE_URL", async () => {
    const result = await startServer({ ...production(), S3_BUCKET: "media" });
    expect(result.outcome).toBe("exited");
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("DATABASE_URL: is required in production");
  });

  it("refuses to start without S3_BUCKET or UPLOADS_DIR, and with SEED_DEV_DATA", async () => {
    const result = await startServer({
      ...production(),
      DATABASE_URL: "postgres://127.0.0.1:1/none",
      SEED_DEV_DATA: "true",
    });
    expect(result.outcome).toBe("exited");
    expect(result.output).toContain("S3_BUCKET: is required in production");
    expect(result.output).toContain("SEED_DEV_DATA: must not be set in production");
  });
});
