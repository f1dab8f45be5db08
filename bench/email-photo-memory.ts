/**
 * What a completion e-mail's 20 MB after photo costs in memory (issue 24, item 9).
 *
 *   npx tsx bench/email-photo-memory.ts
 *
 * Makes a 20+ MB JPEG (4,800 x 3,600 px of noise at quality 100) in a child process, then in a
 * fresh child per way measures the resident set size (VmRSS from /proc, sampled every 2 ms; sharp
 * works on libuv threads, so the sampler keeps running) above the level after a warm-up photo:
 * - "outbox": `emailPhoto` (app/features/outbox/email-photo.server.ts), the stored stream piped
 *   into sharp's stream input, which gathers the whole body into one Buffer before the decode
 *   (a temporary file read by libvips measured no less, 66-72 MiB against 68-69, and was dropped);
 * - "whole original": what the outbox did before it, the original read into one Buffer (then
 *   nodemailer base64-encodes it on top).
 */
import { spawnSync } from "node:child_process";
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const [, , mode, file] = process.argv;

const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;

async function measure(way: string, photo: string) {
  const { emailPhoto } = await import("~/features/outbox/email-photo.server");
  const { loadSharp } = await import("~/utils/sharp.server");
  const sharp = await loadSharp();
  const run = async () => {
    if (way === "outbox") return emailPhoto(createReadStream(photo));
    const chunks: Buffer[] = [];
    for await (const chunk of createReadStream(photo)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  // Warm-up: sharp and libvips loaded, the code paths run once, on a small photo.
  const small = path.join(path.dirname(photo), "small.jpg");
  await sharp({ create: { width: 400, height: 300, channels: 3, background: "#808080" } })
    .jpeg()
    .toFile(small);
  if (way === "outbox") await emailPhoto(createReadStream(small));
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const before = rssMiB();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 2);
  const result = await run();
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB());
  console.log(JSON.stringify({ way, before, peak, delta: peak - before, outputBytes: result.length }));
}

if (mode === "generate") {
  const { default: sharp } = await import("sharp");
  await sharp({
    create: {
      width: 4800,
      height: 3600,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 80 },
    },
  })
    .jpeg({ quality: 100 })
    .toFile(file!);
} else if (mode === "measure") {
  await measure(process.argv[4]!, file!);
} else {
  const folder = mkdtempSync(path.join(os.tmpdir(), "email-photo-bench-"));
  const photo = path.join(folder, "after.jpg");
  const tsx = (...args: string[]) =>
    spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", import.meta.filename, ...args], {
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent" },
    });
  try {
    tsx("generate", photo);
    console.log(`after photo: ${(statSync(photo).size / 1024 / 1024).toFixed(1)} MiB`);
    for (const way of ["outbox", "whole"]) {
      for (let run = 0; run < 3; run++) {
        const child = tsx("measure", photo, way);
        const line = child.stdout.trim().split("\n").pop() ?? "";
        if (!line.startsWith("{")) {
          console.error(child.stderr);
          process.exitCode = 1;
          continue;
        }
        const r = JSON.parse(line) as { way: string; before: number; peak: number; delta: number; outputBytes: number };
        console.log(
          `${way.padEnd(7)} run ${run + 1}: RSS ${r.before.toFixed(1)} -> peak ${r.peak.toFixed(1)} MiB, delta ${r.delta.toFixed(1)} MiB, output ${(r.outputBytes / 1024).toFixed(0)} KiB`,
        );
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
