import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { promisify } from "node:util";

const root = path.resolve(import.meta.dirname, "../..");

/** The production build the server runs; built once when missing (a fresh clone). */
export async function ensureBuild() {
  if (existsSync(path.join(root, "build/index.js"))) return;
  await promisify(execFile)(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    cwd: root,
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export type AppServer = { base: string; process: ChildProcess; output: () => string; stop: () => Promise<void> };

/** `node server.js` in production mode on a free loopback port, ready when its health check answers. */
export async function startAppServer(env: Record<string, string>): Promise<AppServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ["server.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      ALLOW_EMBEDDED_IN_PRODUCTION: "true",
      PORT: String(port),
      HOST: "127.0.0.1",
      SESSION_SECRET: "app-server-test-secret-0123456789abcdef",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/resources/healthcheck`)).ok)
        return { base, process: child, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`server.js did not become healthy:\n${output}`);
}
