import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import pLimit from "p-limit";
import type { Sharp } from "sharp";
import { z } from "zod";
import { loadSharp } from "~/utils/sharp.server";

/**
 * The embedded stand-in for Sanity's image CDN: the parameters that `@sanity/image-url` writes
 * (w, h, rect, fit, auto=format, fm, q, dpr), applied with sharp to the bundled dataset's images,
 * results kept on disk. Anything else is a 400, so a typo never silently serves the original.
 * Sizes are capped: the CDN is a public URL, and every new size costs CPU.
 */

/** Largest output side; Sanity's own CDN allows more, but no page here asks for over 2x 1200 px. */
export const MAX_DIMENSION = 2400;
/** Variants kept on disk at most; a new one beyond that replaces the least recently used. */
export const MAX_CACHED_VARIANTS = 2000;

/**
 * Renders at once, machine-wide. A page view asks for a dozen sizes of the same pictures at the
 * same moment (Lighthouse more), and every sharp job holds a decoded source in native memory and
 * a libuv thread: unbounded, they exhausted a 256 MB machine and queued every file read behind
 * them until the server stopped answering. Queued jobs whose client went away never start.
 */
export const MAX_CONCURRENT_RENDERS = 2;
const renderSlots = pLimit(MAX_CONCURRENT_RENDERS);

const FITS = ["clip", "crop", "fill", "fillmax", "max", "scale", "min"] as const;
const FORMATS = ["jpg", "png", "webp"] as const;
type OutputFormat = (typeof FORMATS)[number];

const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

const paramsSchema = z
  .object({
    w: integer("w", 1, MAX_DIMENSION).optional(),
    h: integer("h", 1, MAX_DIMENSION).optional(),
    rect: z
      .string()
      .regex(/^\d+,\d+,\d+,\d+$/, "rect must be x,y,width,height in whole pixels")
      .transform((value) => value.split(",").map(Number) as [number, number, number, number])
      .optional(),
    fit: z.enum(FITS, { message: `fit must be one of ${FITS.join(", ")}` }).optional(),
    auto: z.enum(["format"], { message: "auto must be format" }).optional(),
    fm: z.enum(FORMATS, { message: `fm must be one of ${FORMATS.join(", ")}` }).optional(),
    q: integer("q", 0, 100).optional(),
    dpr: integer("dpr", 1, 3).optional(),
  })
  .strict();

export type ImageParams = z.infer<typeof paramsSchema>;

export class ImageRequestError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404,
  ) {
    super(message);
  }
}

/** Parses a query string the way the CDN reads it; throws a 400 naming the bad parameter. */
export function parseImageParams(searchParams: URLSearchParams): ImageParams {
  const raw: Record<string, string> = {};
  for (const [name, value] of searchParams) {
    if (name in raw) throw new ImageRequestError(`${name} is given twice`, 400);
    raw[name] = value;
  }
  const result = paramsSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const message = issue.code === "unrecognized_keys" ? `Unknown parameter: ${issue.keys.join(", ")}` : issue.message;
    throw new ImageRequestError(message, 400);
  }
  return result.data;
}

/** auto=format picks WebP for browsers that say they take it, else keeps the source's format. */
export function chooseFormat(params: ImageParams, sourceFormat: string, accept: string | null): OutputFormat {
  if (params.fm) return params.fm;
  if (params.auto === "format" && accept?.includes("image/webp")) return "webp";
  return sourceFormat === "jpeg" || sourceFormat === "jpg" ? "jpg" : "png";
}

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

/** Applies the parameters to one image; the bytes of the source are never trusted for size. */
export async function transformImage(source: Buffer, params: ImageParams, format: OutputFormat): Promise<Buffer> {
  const sharp = await loadSharp();
  let image: Sharp = sharp(source, { limitInputPixels: 40_000_000 });
  const { width: sourceWidth = 0, height: sourceHeight = 0 } = await image.metadata();
  if (params.rect) {
    const [left, top, width, height] = params.rect;
    if (width < 1 || height < 1 || left + width > sourceWidth || top + height > sourceHeight) {
      throw new ImageRequestError(`rect must lie inside the ${sourceWidth}x${sourceHeight} image`, 400);
    }
    image = image.extract({ left, top, width, height });
  }
  const dpr = params.dpr ?? 1;
  const width = params.w ? Math.min(params.w * dpr, MAX_DIMENSION) : undefined;
  const height = params.h ? Math.min(params.h * dpr, MAX_DIMENSION) : undefined;
  if (width || height) {
    const fit = params.fit ?? "clip";
    // Sanity's fit modes in sharp's words: crop fills the box and cuts the overflow (the rect has
    // already centred the hotspot), clip/max fit inside, fill/fillmax pad, scale stretches.
    const resize = {
      crop: { fit: "cover", withoutEnlargement: false },
      min: { fit: "cover", withoutEnlargement: true },
      clip: { fit: "inside", withoutEnlargement: false },
      max: { fit: "inside", withoutEnlargement: true },
      fill: { fit: "contain", withoutEnlargement: false },
      fillmax: { fit: "contain", withoutEnlargement: true },
      scale: { fit: "fill", withoutEnlargement: false },
    } as const;
    image = image.resize({ width, height, ...resize[fit], background: "#ffffff" });
  }
  const quality = params.q ?? 75;
  if (format === "webp") return image.webp({ quality, effort: 4 }).toBuffer();
  if (format === "jpg") return image.flatten({ background: "#ffffff" }).jpeg({ quality, mozjpeg: true }).toBuffer();
  return image.png({ compressionLevel: 9, palette: quality < 100 }).toBuffer();
}

/**
 * A disk cache of rendered variants, bounded in count, written atomically. Full, it deletes the
 * least recently used variant to keep a new one: the sizes pages ask for today stay cached, and
 * a crawler's sweep through odd sizes only cycles through the cold end. Recency is kept in memory
 * (an LRU of file names) and on disk as each file's mtime, touched on every hit, so that a
 * restarted process starts from the same order.
 */
export function createVariantCache(folder: string, maxEntries = MAX_CACHED_VARIANTS) {
  const fileFor = (name: string) => path.join(folder, name);
  const nameFor = (key: string) => createHash("sha256").update(key).digest("hex");
  const entries = new LRUCache<string, true>({
    max: maxEntries,
    // Evicted (not replaced): the file goes too. A failed delete only leaves a stray file.
    dispose: (_value, name, reason) => {
      if (reason === "evict") void rm(fileFor(name), { force: true }).catch(() => {});
    },
  });
  let loaded: Promise<void> | undefined;
  // The files already there, oldest use first, so that the LRU's order matches the disk's.
  const load = () =>
    (loaded ??= (async () => {
      await mkdir(folder, { recursive: true });
      const names = (await readdir(folder)).filter((name) => /^[a-f0-9]{64}$/.test(name));
      const dated = await Promise.all(
        names.map(async (name) => ({ name, used: (await stat(fileFor(name)).catch(() => null))?.mtimeMs ?? 0 })),
      );
      dated.sort((a, b) => a.used - b.used);
      for (const { name } of dated) entries.set(name, true);
    })());
  return {
    async get(key: string): Promise<Buffer | null> {
      await load();
      const name = nameFor(key);
      if (!entries.get(name)) return null;
      try {
        const bytes = await readFile(fileFor(name));
        const now = new Date();
        void utimes(fileFor(name), now, now).catch(() => {});
        return bytes;
      } catch {
        entries.delete(name);
        return null;
      }
    },
    async set(key: string, bytes: Buffer): Promise<void> {
      await load();
      const name = nameFor(key);
      const file = fileFor(name);
      const temporary = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, file);
        entries.set(name, true);
      } catch (error) {
        // A full or read-only disk costs the cache, never the picture: it is served from memory.
        await rm(temporary, { force: true }).catch(() => {});
        console.error(
          JSON.stringify({ level: "error", event: "image-cdn.cache-write", error: String((error as Error)?.message) }),
        );
      }
    },
    /** How many variants are cached now. */
    get size() {
      return entries.size;
    },
  };
}

export type VariantCache = ReturnType<typeof createVariantCache>;

/** A stable key for one variant: the asset, the parsed parameters in a fixed order, the format. */
export function variantKey(assetId: string, params: ImageParams, format: OutputFormat): string {
  const ordered = Object.keys(params)
    .sort()
    .map((name) => `${name}=${String(params[name as keyof ImageParams])}`);
  return `${assetId}?${ordered.join("&")}#${format}`;
}

const FILE_NAME = /^([a-f0-9]{40})-(\d+x\d+)\.([a-z0-9]+)$/;

export type EmbeddedImageSource = {
  projectId: string;
  dataset: string;
  /** Image bytes by asset id, or null when the site reads a Sanity project (the CDN serves them). */
  images: () => Map<string, Buffer> | null;
  cache: VariantCache;
};

/** Renders under way by variant key, with the requests waiting for each (undefined: no signal). */
const inFlight = new Map<string, { job: Promise<Buffer>; waiters: (AbortSignal | undefined)[] }>();

/** Thrown when every client of a render went away before it started: nobody is left to answer. */
export class ImageRequestAborted extends Error {
  constructor() {
    super("The client went away");
  }
}

/**
 * One render in a bounded slot, shared by everyone asking for the same variant. It is skipped
 * only when all of them went away; it always settles and leaves the map either way, so an error
 * never leaves later requests waiting on it.
 */
function renderShared(
  key: string,
  render: () => Promise<Buffer>,
  cache: VariantCache,
  signal?: AbortSignal,
): Promise<Buffer> {
  const pending = inFlight.get(key);
  if (pending) {
    pending.waiters.push(signal);
    return pending.job;
  }
  const waiters = [signal];
  const job = renderSlots(async () => {
    if (waiters.every((waiter) => waiter?.aborted)) throw new ImageRequestAborted();
    const body = await render();
    await cache.set(key, body);
    return body;
  });
  const entry = { job, waiters };
  inFlight.set(key, entry);
  const forget = () => {
    if (inFlight.get(key) === entry) inFlight.delete(key);
  };
  job.then(forget, forget);
  return job;
}

export type ImageResponse = { body: Buffer; contentType: string; negotiated: boolean };

/**
 * Answers `images/<project>/<dataset>/<sha1>-<w>x<h>.<ext>` with the query's parameters applied.
 * Throws an ImageRequestError (400 bad parameters, 404 unknown image).
 */
export async function renderEmbeddedImage(
  source: EmbeddedImageSource,
  imagePath: string,
  searchParams: URLSearchParams,
  accept: string | null,
  signal?: AbortSignal,
): Promise<ImageResponse> {
  const [kind, projectId, dataset, fileName, ...rest] = imagePath.split("/");
  const match = FILE_NAME.exec(fileName ?? "");
  const images = source.images();
  if (kind !== "images" || projectId !== source.projectId || dataset !== source.dataset || rest.length || !match) {
    throw new ImageRequestError("No such image", 404);
  }
  const assetId = `image-${match[1]}-${match[2]}-${match[3]}`;
  const original = images?.get(assetId);
  if (!original) throw new ImageRequestError("No such image", 404);

  const params = parseImageParams(searchParams);
  const format = chooseFormat(params, match[3], accept);
  const key = variantKey(assetId, params, format);
  const body =
    (await source.cache.get(key)) ??
    (await renderShared(key, () => transformImage(original, params, format), source.cache, signal));
  return { body, contentType: CONTENT_TYPES[format], negotiated: params.auto === "format" && !params.fm };
}
