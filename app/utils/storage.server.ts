import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileTypeFromBuffer } from "file-type";
import parseRange from "range-parser";
import { getEnv } from "./env.server";
import { errorFields, log } from "./logger.server";
import type { ByteRange, S3StorageOptions, StorageBackend } from "./storage-backend";
import { MAX_UPLOAD_BYTES } from "./upload-limit";

/** The spec's upload limit: 50 MB. */

/** file-type needs at most this many leading bytes to recognise any format it knows. */
export const SNIFF_BYTES = 4100;

// The backend's shape is in storage-backend.ts, which both backends import (no import cycle).
export type { ByteRange, S3StorageOptions, StorageBackend, StoredObject } from "./storage-backend";

// Keys are made by this module, but get/delete take them from database rows: never let one
// name a file outside the upload folder or carry odd characters to S3.
const KEY_PATTERN = /^[0-9a-f-]{36}\/[0-9a-f-]{36}\/(?:before|after)_\d+\.[a-z0-9]{1,8}$/;

export function isValidStorageKey(key: string) {
  return KEY_PATTERN.test(key);
}

function assertKey(key: string) {
  if (!isValidStorageKey(key)) throw new Error("Invalid storage key");
}

// ---------------------------------------------------------------------------------------------
// Folder backend: ${DATA_DIR}/uploads/{key}

export function createFolderStorage(root: string): StorageBackend {
  const fileFor = (key: string) => {
    assertKey(key);
    return path.join(root, ...key.split("/"));
  };

  return {
    kind: "folder",
    async put(key, body) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written under a temporary name and renamed when complete, so a half-written upload is
      // never visible at its key, and a failed one leaves nothing behind.
      const partial = `${file}.partial-${randomBytes(6).toString("hex")}`;
      try {
        await pipeline(body, createWriteStream(partial, { flags: "wx" }));
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      const file = fileFor(key);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      const body = createReadStream(file, range ? { start: range.start, end: range.end } : {});
      return { body, size: info.size, range };
    },
    async stat(key) {
      const info = await stat(fileFor(key)).catch(() => null);
      return info?.isFile() ? { size: info.size } : null;
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// S3 backend (AWS, Fly's Tigris, Cloudflare R2, MinIO, s3rver in tests): s3-storage.server.ts

/**
 * The S3 backend, its module (and the AWS SDK, ~25 MiB resident) loaded by the first call
 * rather than at start (decision 077): a machine that serves no media never loads it.
 */
export function createS3Storage(options: S3StorageOptions): StorageBackend {
  let backend: Promise<StorageBackend> | undefined;
  // Keys are checked here, before the SDK is loaded for them.
  const loaded = async (key: string) => {
    assertKey(key);
    return (backend ??= import("./s3-storage.server").then((module) => module.createS3Backend(options)));
  };
  return {
    kind: "s3",
    put: async (key, body, putOptions) => (await loaded(key)).put(key, body, putOptions),
    get: async (key, range) => (await loaded(key)).get(key, range),
    stat: async (key) => (await loaded(key)).stat(key),
    delete: async (key) => (await loaded(key)).delete(key),
  };
}

// ---------------------------------------------------------------------------------------------
// The configured backend

let configured: StorageBackend | undefined;
let override: StorageBackend | undefined;

/** S3 when S3_BUCKET is set, else the folder UPLOADS_DIR (default `${DATA_DIR}/uploads`). */
export function getStorage(): StorageBackend {
  if (override) return override;
  if (!configured) {
    const env = getEnv();
    configured = env.S3_BUCKET
      ? createS3Storage({
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : undefined,
        })
      : createFolderStorage(path.resolve(env.UPLOADS_DIR ?? path.join(env.DATA_DIR, "uploads")));
  }
  return configured;
}

/** Tests and benchmarks point the app at their own backend; undefined goes back to env. */
export function setStorageForTests(storage: StorageBackend | undefined) {
  override = storage;
  configured = undefined;
}

// ---------------------------------------------------------------------------------------------
// Streaming an upload into storage

export type MediaKind = "image" | "video";

export type StoreUploadResult =
  | { ok: true; key: string; contentType: string; kind: MediaKind; size: number }
  | { ok: false; reason: "empty" | "too-large" | "not-media" | "failed" };

class TooLargeError extends Error {
  constructor() {
    super("Upload exceeds the size limit");
    this.name = "TooLargeError";
  }
}

function concat(chunks: Uint8Array[], length: number) {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Streams one uploaded file from `source` into storage without holding it in memory:
 * the first bytes are sniffed (the browser's type and the file name are not trusted), only
 * images and videos are kept, and the stream is cut off as soon as it passes `maxBytes`.
 * Whenever the result is not ok, nothing is left in storage.
 *
 * `source` is left positioned wherever reading stopped; the caller drains the rest.
 */
export async function storeUpload(
  storage: StorageBackend,
  source: AsyncIterator<Uint8Array>,
  options: { keyFor: (extension: string) => string; maxBytes?: number },
): Promise<StoreUploadResult> {
  const maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;

  // 1. Read just enough to sniff the type.
  const head: Uint8Array[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SNIFF_BYTES) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.byteLength;
  }
  if (headLength === 0) return { ok: false, reason: "empty" };
  if (headLength > maxBytes) return { ok: false, reason: "too-large" };

  const headBytes = concat(head, headLength);
  const type = await fileTypeFromBuffer(headBytes.subarray(0, SNIFF_BYTES));
  const kind: MediaKind | null = type?.mime.startsWith("image/")
    ? "image"
    : type?.mime.startsWith("video/")
      ? "video"
      : null;
  if (!type || !kind) return { ok: false, reason: "not-media" };

  // 2. Stream the sniffed head and then the rest, counting bytes; passing the limit errors the
  //    stream, which makes the backend abandon the upload.
  let size = headLength;
  let tooLarge = false;
  async function* bytes() {
    yield headBytes;
    if (ended) return;
    for (;;) {
      // Not `for await`: leaving such a loop would call source.return() and end the request
      // body that the caller still has to drain.
      const next = await source.next();
      if (next.done) return;
      size += next.value.byteLength;
      if (size > maxBytes) {
        tooLarge = true;
        throw new TooLargeError();
      }
      yield next.value;
    }
  }

  const key = options.keyFor(type.ext);
  try {
    await storage.put(key, Readable.from(bytes(), { objectMode: false }), { contentType: type.mime });
    return { ok: true, key, contentType: type.mime, kind, size };
  } catch (error) {
    // Belt and braces: the backends store nothing on error, but a stray object must not stay
    // without its database row.
    await storage
      .delete(key)
      .catch((deleteError) => log.error("storage.cleanup_failed", { key, ...errorFields(deleteError) }));
    if (tooLarge) return { ok: false, reason: "too-large" };
    log.error("storage.upload_failed", { key, backend: storage.kind, ...errorFields(error) });
    return { ok: false, reason: "failed" };
  }
}

/**
 * Reads and discards what is left of an upload so that the browser receives the answer (it
 * is still sending). Gives up after `limit` bytes; the connection is then cut instead.
 */
export async function drain(source: AsyncIterator<Uint8Array>, limit = 4 * MAX_UPLOAD_BYTES) {
  let read = 0;
  for (;;) {
    const next = await source.next();
    if (next.done) return;
    read += next.value.byteLength;
    if (read > limit) throw new Error("Upload body too large to drain");
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP Range requests (video players seek with them)

export type RangeRequest = { kind: "whole" } | { kind: "partial"; range: ByteRange } | { kind: "unsatisfiable" };

const WHOLE: RangeRequest = { kind: "whole" };

/**
 * Reads a Range header against an object of `size` bytes, with range-parser (Express's own).
 * One range only: a multi-range, malformed or non-byte header is ignored and the whole object is
 * sent, as RFC 9110 allows. An open-ended range ("bytes=N-", what media players send) is capped
 * at `maxOpenEnded` bytes; players ask again for the rest.
 */
export function parseRangeHeader(header: string | null, size: number, maxOpenEnded = Infinity): RangeRequest {
  if (!header) return WHOLE;
  const spec = header.trim();
  const ranges = parseRange(size, spec);
  if (ranges === -1) return refusedByRangeParser(spec, size);
  if (ranges === -2 || ranges.type !== "bytes" || ranges.length !== 1) return WHOLE;
  const { start } = ranges[0];
  const end = spec.endsWith("-") ? Math.min(ranges[0].end, start + maxOpenEnded - 1) : ranges[0].end;
  return { kind: "partial", range: { start, end } };
}

/**
 * range-parser 1.x (2.x needs Node 22) answers "unsatisfiable" for three headers that RFC 9110
 * reads otherwise, as range-parser 2 does: a suffix longer than the object means all of it
 * ("bytes=-5000" of 1000 bytes), and a reversed ("bytes=50-10") or unreadable range is invalid,
 * so the header is ignored.
 */
function refusedByRangeParser(spec: string, size: number): RangeRequest {
  const [, first, last] = /^bytes=(\d*)-(\d*)$/.exec(spec) ?? [];
  if (first === undefined || (first === "" && last === "")) return WHOLE;
  if (first !== "" && last !== "" && Number(first) > Number(last)) return WHOLE;
  if (first === "" && Number(last) > 0 && size > 0) return { kind: "partial", range: { start: 0, end: size - 1 } };
  return { kind: "unsatisfiable" };
}
