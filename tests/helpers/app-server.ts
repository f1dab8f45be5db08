import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ensureBuild } from "./ensure-build";

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  const port = await new Promise<number>((resolve) =>
    probe.listen(0, "127.0.0.1", () => resolve((probe.address() as net.AddressInfo).port)),
  );
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The memory settings of the production image (Dockerfile), to run the server as Fly does. */
export function imageMemoryEnv(): Record<string, string> {
  const dockerfile = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
  const env: Record<string, string> = {};
  const nodeOptions = /^ENV NODE_OPTIONS="([^"]*)"/m.exec(dockerfile)?.[1];
  const arenas = /^ENV MALLOC_ARENA_MAX=(\d+)/m.exec(dockerfile)?.[1];
  if (nodeOptions) env.NODE_OPTIONS = nodeOptions;
  if (arenas) env.MALLOC_ARENA_MAX = arenas;
  return env;
}

/** Node's flags in the production image's CMD (between `node` and the server file), as Fly runs it. */
export function imageNodeArgs(): string[] {
  const dockerfile = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
  const cmd = dockerfile
    .split("\n")
    .filter((line) => /^CMD\s/.test(line))
    .at(-1);
  const argv = cmd ? (JSON.parse(cmd.replace(/^CMD\s+/, "")) as string[]) : [];
  return argv.slice(1, -1);
}

/** Resident memory of a process, from /proc (Linux), in MiB; NaN once it is gone. */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return Number.NaN;
  }
}

export type AppServer = {
  url: string;
  child: ChildProcess;
  output: () => string;
  rss: () => number;
  stop(): Promise<void>;
};

export type StartOptions = {
  /**
   * "listening" (the default): resolves once the server answers at all, whatever its database
   * does (fault tests start it against a database that is down). "healthy": once
   * /resources/healthcheck says 200, so the database is connected and migrated (two servers
   * on one database are started one after the other, or both would migrate at once).
   */
  ready?: "listening" | "healthy";
  /**
   * "collect" (the default): the server's output is kept for `output()`. "inherit": it goes to
   * this process's stdout and stderr; for benches that block their event loop (spawnSync) while
   * the server runs, which would stop a piped server on a full pipe.
   */
  stdio?: "collect" | "inherit";
  /**
   * A memory cgroup's folder (bench/_memory-cgroup.ts): the server joins it before Node starts,
   * so that everything it allocates counts against that cgroup's limit, as on a Fly machine.
   */
  cgroup?: string;
  /** Node's own flags before server.js (some, such as --cpu-prof, are refused in NODE_OPTIONS). */
  nodeArgs?: string[];
};

/**
 * `node server.js` (the production build, built first if stale) on a free loopback port, with
 * its own data folder and only the environment given here (not the test runner's).
 */
export async function startAppServer(
  env: Record<string, string> = {},
  { ready = "listening", stdio = "collect", cgroup, nodeArgs = [] }: StartOptions = {},
): Promise<AppServer> {
  ensureBuild();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "app-server-"));
  // In a cgroup: a shell joins it, then becomes Node (exec), so the pid and signals stay the server's.
  const node = [process.execPath, ...nodeArgs, "server.js"];
  const [command, args] = cgroup
    ? ["/bin/sh", ["-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup, ...node]]
    : [node[0], node.slice(1)];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      ALLOW_EMBEDDED_IN_PRODUCTION: "true",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      SESSION_SECRET: "app-server-test-secret-that-is-long-enough",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: stdio === "collect" ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  let output = "";
  child.stdout?.on("data", (c) => (output += c.toString()));
  child.stderr?.on("data", (c) => (output += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const server: AppServer = {
    url,
    child,
    output: () => output,
    // Resident memory of the server process, from /proc (Linux), in bytes.
    rss: () => rssMiB(child.pid!) * 1024 * 1024 || 0,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const probe = ready === "healthy" ? `${url}/resources/healthcheck` : `${url}/robots.txt`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) {
      await server.stop();
      throw new Error(`server exited: ${output}`);
    }
    const up = await fetch(probe).then(
      (response) => ready === "listening" || response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() - started > 60_000) {
      await server.stop();
      throw new Error(`server did not become ${ready}: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return server;
}
