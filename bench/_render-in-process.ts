// Renders pages in a production process of their own (bench/_render-pages.mjs): the loaders,
// React and the HTML through the Remix request handler, no HTTP, no page cache. Shared by
// bench/scale.ts and bench/plan-pages.ts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

export type RenderTiming = { p50: number; p95: number; cpu50: number; bytes: number };
/** A page: its label and its path (signed in with the run's cookie), or several paths and cookies in turn. */
export type RenderPage = [label: string, where: string | [pathname: string, cookie: string][]];

export function renderInProcess(options: {
  databaseUrl: string;
  sessionSecret: string;
  /** Paths of server builds (build/index.js), rendered in turns. */
  builds: string[];
  pages: RenderPage[];
  cookie?: string;
  calls: number;
  htmlDir?: string;
  /** Render the pages in turns too (to compare pages by ratio). */
  interleave?: boolean;
}): { label: string; builds: RenderTiming[] }[] {
  const { databaseUrl, sessionSecret, ...input } = options;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-render-"));
  try {
    const child = spawnSync(
      process.execPath,
      [
        // BENCH_RENDER_PROFILE=<folder>: a CPU profile of the renders (open it in Chrome's DevTools).
        ...(process.env.BENCH_RENDER_PROFILE
          ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_RENDER_PROFILE}`]
          : []),
        path.join(root, "bench/_render-pages.mjs"),
        JSON.stringify({ ...input, cookie: input.cookie ?? "" }),
      ],
      {
        cwd: root,
        encoding: "utf8",
        maxBuffer: 16 * 1024 * 1024,
        // As tests/helpers/app-server.ts starts the production server.
        env: {
          PATH: process.env.PATH ?? "",
          NODE_ENV: "production",
          ALLOW_EMBEDDED_IN_PRODUCTION: "true",
          SITE_URL: "http://localhost",
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          SESSION_SECRET: sessionSecret,
          SEED_DEV_DATA: "false",
          LOG_LEVEL: "error",
        },
      },
    );
    const line = child.stdout.trim().split("\n").at(-1) ?? "";
    if (child.status !== 0 || !line.startsWith("[")) {
      throw new Error(`bench/_render-pages.mjs failed (${child.status}): ${child.stderr.slice(-2000)}`);
    }
    return JSON.parse(line) as { label: string; builds: RenderTiming[] }[];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
