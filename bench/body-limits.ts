// Memory and answer time of oversized bodies against the production build (the figures of
// issue 16: 128 MB with a bogus signature to the webhook took the server from 193 to 782 MB).
// Run: npm run build && npx tsx bench/body-limits.ts   (BENCH_DATABASE_URL for PostgreSQL)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

const MiB = 1024 * 1024;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** Sends up to `size` bytes (declaring `declared`) and stops once the server answers. */
function send(port: number, p: string, headers: Record<string, string>, size: number, declared?: number) {
  return new Promise<{ status: number; ms: number; sentMiB: number }>((resolve) => {
    const started = Date.now();
    let sent = 0;
    let answered = false;
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: p,
      headers: {
        ...headers,
        ...(declared ? { "Content-Length": String(declared) } : { "Transfer-Encoding": "chunked" }),
      },
    });
    const finish = (status: number) => {
      if (answered) return;
      answered = true;
      resolve({ status, ms: Date.now() - started, sentMiB: sent / MiB });
      req.destroy();
    };
    req.on("response", (res) => {
      res.resume();
      finish(res.statusCode ?? 0);
    });
    req.on("error", () => finish(0));
    const chunk = Buffer.alloc(MiB, 0x61);
    const pump = () => {
      while (!answered && sent < size) {
        sent += chunk.byteLength;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered && sent >= size && !declared) req.end();
    };
    req.flushHeaders();
    pump();
    setTimeout(() => finish(-1), 30_000);
  });
}

const port = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-body-"));
const server = spawn(process.execPath, ["server.js"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    ALLOW_EMBEDDED_IN_PRODUCTION: "true",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret-1234",
    SANITY_WEBHOOK_SECRET: "bench-webhook-secret",
    LOG_LEVEL: "error",
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
try {
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/resources/healthcheck`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  const cases: [string, string, Record<string, string>, number, number?][] = [
    [
      "128 MB, bogus signature -> webhook",
      "/resources/sanity-webhook",
      { "Content-Type": "application/json", "sanity-webhook-signature": "t=1,v1=bogus" },
      128 * MiB,
    ],
    ["128 MB, no signature -> webhook", "/resources/sanity-webhook", { "Content-Type": "application/json" }, 128 * MiB],
    ["64 MB form -> /contact", "/contact?index", form, 64 * MiB],
    ["64 MB form -> /auth", "/auth", form, 64 * MiB],
    ["declared 1 GB -> /contact", "/contact?index", form, 8 * MiB, 1024 * MiB],
    [
      "declared 2 GB anonymous upload",
      "/admin-dashboard?index",
      { "Content-Type": "multipart/form-data; boundary=x" },
      8 * MiB,
      2048 * MiB,
    ],
  ];
  console.log(
    "case".padEnd(40),
    "status",
    "answer ms".padStart(10),
    "sent MiB".padStart(9),
    "RSS before".padStart(11),
    "after".padStart(7),
  );
  for (const [label, p, headers, size, declared] of cases) {
    const before = rssMiB(server.pid!);
    const result = await send(port, p, headers, size, declared);
    await new Promise((r) => setTimeout(r, 300));
    const after = rssMiB(server.pid!);
    console.log(
      label.padEnd(40),
      String(result.status).padStart(6),
      String(result.ms).padStart(10),
      result.sentMiB.toFixed(0).padStart(9),
      before.toFixed(0).padStart(11),
      after.toFixed(0).padStart(7),
    );
  }
  console.log(
    "goal: 413/401 within ms, RSS grows by at most a few MiB (issue 16 measured +589, +450, +770 MiB before)",
  );
} finally {
  server.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
}
