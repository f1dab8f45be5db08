/**
 * How much memory a 40 MB video upload costs the server.
 *
 * 1. Over HTTP against the production server (`node server.js`, the built app) as a separate
 *    process, once with the folder backend and once with S3 (s3rver on 127.0.0.1): the
 *    server's resident set size (VmRSS from /proc) is sampled every 20 ms while an admin's
 *    40 MB multipart uploads stream in, five in a row; the figures are the peaks above the
 *    level before the first (garbage included: RSS is what the machine pays).
 * 2. In this process, through the upload route's action itself: live memory (JS heap + ArrayBuffers
 *    after a full garbage collection) part-way through the upload, against what reading the
 *    same body into memory costs.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const SESSION_SECRET = "bench-session-secret-that-is-long-enough-0123456789";
Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEV_DATA: "false", SESSION_SECRET });

const { connect } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrator");
const { databaseOptionsFromEnv } = await import("../db/options");
const { setDatabaseForTests } = await import("~/utils/db.server");
const { createFolderStorage, createS3Storage, setStorageForTests } = await import("~/utils/storage.server");
// The upload forms post to this resource route (it used to be the dashboard's own action).
const { action } = await import("~/routes/resources.media-upload");
const { createUser, sessionCookieFor } = await import("../tests/helpers/factories");
const { createVisitRow } = await import("../tests/helpers/portal-data");
const { generatedBytes, MiB, MP4_HEADER, multipartBody } = await import("../tests/helpers/media-bytes");
const { measureUpload, withCheckpoints } = await import("../tests/helpers/memory-sampler");
const { startLocalS3 } = await import("../tests/helpers/s3-server");
const { createTestDatabase } = await import("../tests/helpers/test-database");

const VIDEO_BYTES = 40 * MiB;
const UPLOADS = 5;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
type Row = Record<string, string | number>;
const results: Row[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

function rssKiB(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function waitForHealth(base: string, child: ChildProcess) {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error("server exited during start-up");
    const ok = await fetch(`${base}/resources/healthcheck`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("server did not become healthy");
}

/** Streams a multipart upload over HTTP, honouring back-pressure; resolves with the response. */
function postUpload(url: string, cookie: string, size: number) {
  const { body, contentType } = multipartBody({
    field: "after",
    filename: "yard.mp4",
    contentType: "video/mp4",
    bytes: generatedBytes(MP4_HEADER, size, 64 * 1024),
  });
  return new Promise<{ status: number; location: string | null }>((resolve, reject) => {
    const request = http.request(
      url,
      // Origin: the server refuses a cross-site write before reading its body (server/cross-site.js).
      { method: "POST", headers: { Cookie: cookie, "Content-Type": contentType, Origin: new URL(url).origin } },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location ?? null }),
        );
      },
    );
    request.on("error", reject);
    (async () => {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!request.write(value)) await new Promise((r) => request.once("drain", r));
      }
      request.end();
    })().catch(reject);
  });
}

/** Part 1: the production server in its own process. */
async function overHttp(backend: "folder" | "s3") {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-data-"));
  const s3 = backend === "s3" ? await startLocalS3() : null;
  let child: ChildProcess | null = null;
  try {
    // Prepare the database the server will open: an admin with a session, a customer's visit.
    const handle = connect(databaseOptionsFromEnv({ DATA_DIR: dataDir }));
    await migrateToLatest(handle.db);
    setDatabaseForTests(handle.db);
    const admin = await createUser(handle.db, { admin: true });
    const customer = await createUser(handle.db);
    const visit = await createVisitRow(handle.db, customer.id);
    const cookie = await sessionCookieFor(admin.id);
    setDatabaseForTests(undefined);
    await handle.close();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["server.js"], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        ALLOW_EMBEDDED_IN_PRODUCTION: "true",
        PORT: String(port),
        HOST: "127.0.0.1",
        SITE_URL: base,
        DATA_DIR: dataDir,
        SESSION_SECRET,
        SEED_DEV_DATA: "false",
        LOG_LEVEL: "warn",
        ...(s3
          ? {
              S3_BUCKET: s3.options.bucket,
              S3_ENDPOINT: s3.options.endpoint,
              S3_REGION: s3.options.region,
              S3_ACCESS_KEY_ID: s3.options.credentials!.accessKeyId,
              S3_SECRET_ACCESS_KEY: s3.options.credentials!.secretAccessKey,
              S3_FORCE_PATH_STYLE: "true",
            }
          : {}),
      },
    });
    await waitForHealth(base, child);
    const uploadUrl = `${base}/resources/media-upload?service=${visit.id}`;
    // Warm-up: load every module of the upload path (the S3 SDK loads lazily) before measuring.
    const warm = await postUpload(uploadUrl, cookie, 6 * MiB);
    if (warm.status !== 302) throw new Error(`warm-up upload answered ${warm.status}`);
    await new Promise((r) => setTimeout(r, 500));

    // Several uploads in a row, each sampled against the level before the first: buffering (or
    // a leak) would add about 40 MiB per upload; streaming stays at the same level.
    const pid = child.pid!;
    const before = rssKiB(pid);
    const peaks: number[] = [];
    let seconds = 0;
    for (let run = 0; run < UPLOADS; run++) {
      let peak = rssKiB(pid);
      const timer = setInterval(() => {
        peak = Math.max(peak, rssKiB(pid));
      }, 20);
      const started = performance.now();
      const answer = await postUpload(uploadUrl, cookie, VIDEO_BYTES);
      seconds += (performance.now() - started) / 1000;
      clearInterval(timer);
      peaks.push(Math.max(peak, rssKiB(pid)));
      if (answer.status !== 302 || !answer.location?.includes(visit.id))
        throw new Error(`upload answered ${answer.status}`);
    }
    const after = rssKiB(pid);
    const mib = (kib: number) => Math.round(kib / 102.4) / 10;

    results.push({
      measurement: `HTTP → node server.js, ${backend}, ${UPLOADS} uploads of 40 MiB in a row`,
      "server RSS before (MiB)": mib(before),
      "peak RSS growth per upload (MiB)": peaks.map((p) => mib(p - before)).join(" / "),
      "RSS growth after the last (MiB)": mib(after - before),
      "MB/s": Math.round((UPLOADS * VIDEO_BYTES) / MiB / seconds),
    });
  } finally {
    child?.kill("SIGTERM");
    if (child && child.exitCode === null) await new Promise((r) => child!.once("exit", r));
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Part 2: the admin action in this process, live memory at checkpoints. */
async function inProcess(backend: "folder" | "s3" | "buffered (for comparison)") {
  const database = await createTestDatabase();
  const uploads = mkdtempSync(path.join(os.tmpdir(), "bench-uploads-"));
  const s3 = backend === "s3" ? await startLocalS3() : null;
  try {
    setDatabaseForTests(database.db);
    setStorageForTests(s3 ? createS3Storage(s3.options) : createFolderStorage(uploads));
    const admin = await createUser(database.db, { admin: true });
    const visit = await createVisitRow(database.db, (await createUser(database.db)).id);
    const cookie = await sessionCookieFor(admin.id);
    const checkpoints = [10, 20, 30, 39].map((n) => n * MiB);

    const { report } = await measureUpload(async (checkpoint) => {
      const { body, contentType } = multipartBody({
        field: "after",
        filename: "yard.mp4",
        contentType: "video/mp4",
        bytes: withCheckpoints(generatedBytes(MP4_HEADER, VIDEO_BYTES, 64 * 1024), checkpoints, checkpoint),
      });
      const request = new Request(`http://localhost/resources/media-upload?service=${visit.id}`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": contentType },
        body,
        duplex: "half",
      } as RequestInit);
      if (backend.startsWith("buffered")) {
        // What any code that reads the whole body first (request.formData(), arrayBuffer()) pays.
        const whole = await request.arrayBuffer();
        if (whole.byteLength < VIDEO_BYTES) throw new Error("short body");
        return;
      }
      const response = await action({ request, params: {}, context: {} });
      if (!(response instanceof Response) || response.status !== 302) throw new Error("upload failed");
    });
    if (backend === "folder") {
      const row = await database.db.selectFrom("service_images").selectAll().executeTakeFirstOrThrow();
      if (statSync(path.join(uploads, row.image_url)).size !== VIDEO_BYTES) throw new Error("stored size differs");
    }
    results.push({
      measurement: `in-process admin action, ${backend}`,
      "live growth at 10/20/30/39 MiB sent (MiB)": Object.values(report.liveGrowthMiB).join(" / "),
      "peak RSS growth (MiB)": report.peakRssGrowthMiB,
    });
  } finally {
    setStorageForTests(undefined);
    setDatabaseForTests(undefined);
    await database.close();
    await s3?.close();
    rmSync(uploads, { recursive: true, force: true });
  }
}

if (!existsSync(path.join(root, "build/index.js"))) {
  console.log("No production build: running `npm run build` first.");
  spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
}
console.log(`Uploading a ${VIDEO_BYTES / MiB} MiB MP4 (valid ftyp header, generated on the fly) as the admin.`);
for (const backend of ["folder", "s3"] as const) await overHttp(backend);
for (const backend of ["folder", "s3", "buffered (for comparison)"] as const) await inProcess(backend);

for (const row of results) {
  console.log(`\n${row.measurement}`);
  for (const [key, value] of Object.entries(row)) if (key !== "measurement") console.log(`  ${key}: ${value}`);
}
