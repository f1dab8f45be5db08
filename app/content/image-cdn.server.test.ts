import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { callRoute } from "../../tests/helpers/route-calls";
import { loader } from "~/routes/resources.image-cdn.$";
import { resetEnvCache } from "~/utils/env.server";
import { getHomePage } from "./content.server";
import { createVariantCache, MAX_DIMENSION } from "./image-cdn.server";
import { resolveImage } from "./images.server";

/** The embedded image route, called as Remix calls it, over the bundled dataset's real images. */

let dataDir: string;
let heroPath: string; // images/embedded/production/<sha1>-1600x1200.png

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "image-cdn-"));
  process.env.DATA_DIR = dataDir;
  resetEnvCache();
  const hero = (await getHomePage()).hero.image;
  const ref = hero?.asset?._ref ?? "";
  const [, sha1, size, ext] = /^image-([a-f0-9]{40})-(\d+x\d+)-([a-z]+)$/.exec(ref) ?? [];
  heroPath = `images/embedded/production/${sha1}-${size}.${ext}`;
});

afterAll(() => {
  delete process.env.DATA_DIR;
  resetEnvCache();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (query: string, headers: Record<string, string> = {}, imagePath = heroPath) =>
  callRoute(loader, `/resources/image-cdn/${imagePath}${query}`, { params: { "*": imagePath }, headers });

async function picture(response: Response) {
  expect(response.status).toBe(200);
  return sharp(Buffer.from(await response.arrayBuffer())).metadata();
}

describe("the image route takes Sanity's CDN parameters", () => {
  test("without parameters: the original, as a PNG, cached for a year", async () => {
    const response = await get("");
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const meta = await picture(response);
    expect([meta.width, meta.height, meta.format]).toEqual([1600, 1200, "png"]);
  });

  test("w resizes keeping the aspect ratio", async () => {
    const meta = await picture(await get("?w=400"));
    expect([meta.width, meta.height]).toEqual([400, 300]);
  });

  test("w + h + fit=crop fill the box; rect cuts out a region first", async () => {
    const square = await picture(await get("?w=200&h=200&fit=crop"));
    expect([square.width, square.height]).toEqual([200, 200]);
    const region = await picture(await get("?rect=100,50,800,400&w=400&h=200&fit=crop"));
    expect([region.width, region.height]).toEqual([400, 200]);
    const raw = await picture(await get("?rect=0,0,300,100"));
    expect([raw.width, raw.height]).toEqual([300, 100]);
  });

  test("fit=max never enlarges; dpr multiplies the size", async () => {
    const capped = await picture(await get("?w=2000&fit=max"));
    expect(capped.width).toBe(1600);
    const doubled = await picture(await get("?w=300&dpr=2"));
    expect(doubled.width).toBe(600);
  });

  test("auto=format answers WebP to browsers that accept it, the source format to others, and says it varies", async () => {
    const webp = await get("?w=300&auto=format", { Accept: "image/avif,image/webp,*/*" });
    expect(webp.headers.get("content-type")).toBe("image/webp");
    expect(webp.headers.get("vary")).toBe("Accept");
    expect((await picture(webp)).format).toBe("webp");

    const plain = await get("?w=300&auto=format", { Accept: "image/png,*/*" });
    expect(plain.headers.get("content-type")).toBe("image/png");
    expect((await picture(plain)).format).toBe("png");
  });

  test("fm forces a format and q sets its quality", async () => {
    const low = await get("?w=600&fm=jpg&q=20");
    const high = await get("?w=600&fm=jpg&q=95");
    expect(low.headers.get("content-type")).toBe("image/jpeg");
    const [lowBytes, highBytes] = [(await low.arrayBuffer()).byteLength, (await high.arrayBuffer()).byteLength];
    expect(lowBytes).toBeLessThan(highBytes);
  });

  test("every URL that resolveImage writes for the hero is served at the size it promises", async () => {
    const image = resolveImage((await getHomePage()).hero.image, { maxWidth: 720, aspectRatio: 4 / 3 });
    expect(image).not.toBeNull();
    const candidates = image!.srcSet.split(", ").map((entry) => entry.split(" "));
    expect(candidates).toHaveLength(4);
    for (const [url, descriptor] of candidates) {
      const { pathname, search } = new URL(url, "http://localhost");
      expect(pathname.startsWith("/resources/image-cdn/images/")).toBe(true);
      const imagePath = pathname.replace("/resources/image-cdn/", "");
      const meta = await picture(await get(search, { Accept: "image/webp" }, imagePath));
      expect(`${meta.width}w`).toBe(descriptor);
      expect(meta.format).toBe("webp");
    }
  });

  test("rendered variants are kept on disk and reused", async () => {
    const folder = path.join(dataDir, "image-cache");
    await get("?w=123");
    const count = readdirSync(folder).length;
    const again = await get("?w=123");
    expect((await picture(again)).width).toBe(123);
    expect(readdirSync(folder)).toHaveLength(count);
  });
});

describe("bad requests are refused with a reason, never a 500", () => {
  test.each([
    ["?w=abc", 400, "w must be a whole number"],
    ["?w=0", 400, "w must be at least 1"],
    ["?w=-5", 400, "w must be a whole number"],
    [`?w=${MAX_DIMENSION + 1}`, 400, `w must be at most ${MAX_DIMENSION}`],
    ["?h=100000000000", 400, `h must be at most ${MAX_DIMENSION}`],
    ["?w=10&w=20", 400, "w is given twice"],
    ["?fit=stretch", 400, "fit must be one of"],
    ["?fm=gif", 400, "fm must be one of"],
    ["?auto=compress", 400, "auto must be format"],
    ["?q=101", 400, "q must be at most 100"],
    ["?dpr=4", 400, "dpr must be at most 3"],
    ["?rect=1,2,3", 400, "rect must be x,y,width,height"],
    ["?rect=1500,0,200,200", 400, "rect must lie inside the 1600x1200 image"],
    ["?blur=50", 400, "Unknown parameter: blur"],
  ])("%s → %i", async (query, status, message) => {
    const response = await get(query);
    expect(response.status).toBe(status);
    expect(await response.text()).toContain(message);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  test.each([
    ["an unknown image", "images/embedded/production/0000000000000000000000000000000000000000-10x10.png"],
    ["another project", heroPathFor("someone-else")],
    ["a path outside the images", "images/embedded/production/../../../package.json"],
    ["not an image path", "files/embedded/production/x.pdf"],
  ])("%s → 404", async (_label, imagePath) => {
    const response = await get("?w=100", {}, imagePath);
    expect(response.status).toBe(404);
  });
});

function heroPathFor(project: string) {
  return `images/${project}/production/e2590a23c7b4433ab645750b549814b12e37ce91-1600x1200.png`;
}

describe("the variant cache keeps the most recently used variants", () => {
  const bytes = (label: string) => Buffer.from(`variant ${label}`);

  test("full, a new variant replaces the least recently used one (not refused)", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "variant-cache-"));
    try {
      const cache = createVariantCache(folder, 3);
      for (const key of ["a", "b", "c"]) await cache.set(key, bytes(key));
      // "a" is read again: "b" is now the least recently used.
      expect(await cache.get("a")).toEqual(bytes("a"));
      await cache.set("d", bytes("d"));
      expect(await cache.get("d")).toEqual(bytes("d"));
      expect(await cache.get("b")).toBeNull();
      expect(await cache.get("a")).toEqual(bytes("a"));
      expect(await cache.get("c")).toEqual(bytes("c"));
      // On disk too: never more files than the cap (the evicted file is deleted).
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(readdirSync(folder)).toHaveLength(3);
      // A crawler's sweep through new sizes keeps caching: the last ones asked for are there.
      for (let i = 0; i < 10; i++) await cache.set(`sweep-${i}`, bytes(`sweep-${i}`));
      expect(await cache.get("sweep-9")).toEqual(bytes("sweep-9"));
      expect(cache.size).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(readdirSync(folder)).toHaveLength(3);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("a restarted process keeps the cap and evicts the file used longest ago", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "variant-cache-"));
    try {
      const first = createVariantCache(folder, 2);
      await first.set("old", bytes("old"));
      await first.set("new", bytes("new"));
      const fileOf = (key: string) => createHash("sha256").update(key).digest("hex");
      // Make the use times unambiguous: "old" an hour ago.
      const hourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(path.join(folder, fileOf("old")), hourAgo, hourAgo);
      const again = createVariantCache(folder, 2);
      await again.set("third", bytes("third"));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(readdirSync(folder)).toHaveLength(2);
      expect(readdirSync(folder).sort()).toEqual([fileOf("new"), fileOf("third")].sort());
      expect(await again.get("third")).toEqual(bytes("third"));
      expect(await again.get("old")).toBeNull();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
