import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { imageMemoryEnv, startAppServer, type AppServer } from "../helpers/app-server";
import { createTestDatabase, testServerUrl, type TestDatabase } from "../helpers/test-database";

/**
 * The embedded image route under what Lighthouse does to it: many sizes and formats of the hero
 * and gallery pictures at once, clients that hang up mid-answer, on the production server with
 * the Dockerfile's heap limit. It once logged "Premature close" and then stopped answering; a
 * hang here fails through the test's timeout.
 */
const MiB = 1024 * 1024;

let app: AppServer;
let database: TestDatabase | undefined;
let pictures: string[] = [];
let peakRss = 0;
let sampler: NodeJS.Timeout | undefined;

/** The image route's paths (no query) that a page's markup names. */
async function picturesOn(page: string): Promise<string[]> {
  const html = await (await fetch(`${app.url}${page}`)).text();
  const found = html.match(/\/resources\/image-cdn\/images\/embedded\/production\/[a-f0-9]{40}-\d+x\d+\.[a-z]+/g) ?? [];
  return [...new Set(found)];
}

/** A GET that the client abandons once `afterBytes` of the body arrived (0: as soon as headers do). */
function abandonedGet(url: string, afterBytes: number, accept: string): Promise<void> {
  return new Promise((resolve) => {
    const request = http.get(url, { headers: { accept } }, (response) => {
      let received = 0;
      if (afterBytes === 0) return void request.destroy();
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received >= afterBytes) request.destroy();
      });
      response.on("end", () => resolve());
    });
    request.on("close", () => resolve());
    request.on("error", () => resolve());
  });
}

/** A GET whose client goes away before any answer: after `ms` milliseconds. */
function cancelledGet(url: string, ms: number, accept: string): Promise<void> {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return fetch(url, { headers: { accept }, signal: controller.signal }).then(
    (response) => response.arrayBuffer().then(() => undefined),
    () => undefined,
  );
}

const WEBP = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8";
const FORMATS = ["&auto=format", "&fm=jpg", "&fm=webp", "&fm=png"];

describe("the image route under a page audit", () => {
  beforeAll(async () => {
    // On PostgreSQL the server's memory is the app's; PGlite (the default) runs the database in
    // the server process, and its hundreds of MiB would hide what the pictures cost.
    const serverUrl = testServerUrl();
    database = serverUrl ? await createTestDatabase() : undefined;
    const databaseUrl =
      serverUrl && database ? Object.assign(new URL(serverUrl), { pathname: `/${database.name}` }) : null;
    // The memory settings of the image, as bench/pages.ts runs the server too.
    app = await startAppServer({
      ...imageMemoryEnv(),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl.toString() } : {}),
    });
    pictures = [...new Set([...(await picturesOn("/")), ...(await picturesOn("/gallery"))])];
    sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, app.rss());
      } catch {
        // the process is gone; the tests say so
      }
    }, 50);
  }, 120_000);

  afterAll(async () => {
    if (sampler) clearInterval(sampler);
    if (app && app.child.exitCode !== null) console.error("image-cdn-load: the server died:\n" + app.output());
    await app?.stop();
    await database?.close();
  });

  test("the pages name hero and gallery pictures", () => {
    expect(pictures.length).toBeGreaterThan(1);
  });

  test("clients that hang up mid-answer leave the server answering", async () => {
    const aborted: Promise<void>[] = [];
    let n = 0;
    for (const picture of pictures) {
      for (let width = 301; width < 1500; width += 97) {
        const url = `${app.url}${picture}?w=${width}&h=${Math.round(width * 0.75)}&fit=crop${FORMATS[n % FORMATS.length]}`;
        n += 1;
        aborted.push(n % 3 === 0 ? abandonedGet(url, n % 2 ? 0 : 1024, WEBP) : cancelledGet(url, 5 + (n % 40), WEBP));
      }
    }
    await Promise.all(aborted);

    // The next visitor gets pictures and pages, and the server lived through it.
    const picture = await fetch(`${app.url}${pictures[0]}?w=320&h=240&fit=crop&auto=format`, {
      headers: { accept: WEBP },
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/webp");
    expect((await picture.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    expect(app.child.exitCode).toBeNull();
    expect(app.output()).not.toMatch(/"level":"error"|Premature close|Unexpected Application Error/);
    console.log(
      `image-cdn-load: ${aborted.length} abandoned requests, server RSS peak ${Math.round(peakRss / MiB)} MiB`,
    );
  }, 120_000);

  test("many different sizes and formats at once all answer, with memory bounded", async () => {
    const urls: string[] = [];
    let n = 0;
    for (const picture of pictures) {
      for (let width = 200; width <= 1600; width += 200) {
        urls.push(`${picture}?w=${width}&h=${Math.round(width / 1.5)}&fit=crop${FORMATS[n % FORMATS.length]}`);
        n += 1;
      }
    }
    const answers = await Promise.all(
      urls.map(async (url) => {
        const response = await fetch(`${app.url}${url}`, { headers: { accept: WEBP } });
        return { url, status: response.status, bytes: (await response.arrayBuffer()).byteLength };
      }),
    );
    expect(answers.filter((a) => a.status !== 200 || a.bytes === 0)).toEqual([]);
    // The same again comes from the disk cache, unchanged.
    const again = await fetch(`${app.url}${urls[0]}`, { headers: { accept: WEBP } });
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBe(answers[0].bytes);
    expect(app.child.exitCode).toBeNull();
    console.log(`image-cdn-load: ${urls.length} parallel variants, server RSS peak ${Math.round(peakRss / MiB)} MiB`);
    // Unbounded renders took this server past 650 MiB; bounded ones stay near 250 (the figure
    // against the 256 MB goal is the bench's to print). The bar is set between the two, so a
    // busy machine's noise cannot fail it but a return of unbounded renders does.
    if (database) expect(peakRss).toBeLessThan(450 * MiB);
  }, 180_000);
});
