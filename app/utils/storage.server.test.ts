import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generatedBytes, makePng, MiB, MP4_HEADER } from "../../tests/helpers/media-bytes";
import { startLocalS3, type LocalS3 } from "../../tests/helpers/s3-server";
import {
  createFolderStorage,
  createS3Storage,
  parseRangeHeader,
  storeUpload,
  type StorageBackend,
} from "./storage.server";
import { MAX_UPLOAD_BYTES } from "./upload-limit";

async function readAll(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function iteratorOf(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncIterator<Uint8Array> {
  return (async function* () {
    yield* chunks;
  })();
}

const customerId = randomUUID();
const visitId = randomUUID();
const keyFor = (type: "before" | "after") => (ext: string) => `${customerId}/${visitId}/${type}_${Date.now()}.${ext}`;

type Backend = { name: string; storage: StorageBackend; listKeys(): Promise<string[]> };
const s3Commands: string[] = [];

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(root, full).split(path.sep).join("/"));
    }
  };
  try {
    walk(root);
  } catch {
    // not created yet: empty
  }
  return out.sort();
}

async function listObjects(client: S3Client, bucket: string) {
  const result = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (result.Contents ?? []).map((o) => o.Key ?? "").sort();
}

let folderRoot: string;
let s3: LocalS3;
const backends: Backend[] = [];

beforeAll(async () => {
  folderRoot = mkdtempSync(path.join(os.tmpdir(), "uploads-"));
  s3 = await startLocalS3();
  backends.push(
    { name: "folder", storage: createFolderStorage(folderRoot), listKeys: async () => listFiles(folderRoot) },
    {
      name: "s3",
      storage: createS3Storage({ ...s3.options, onCommand: (c) => s3Commands.push(c) }),
      listKeys: () => listObjects(s3.client, s3.options.bucket),
    },
  );
});

afterAll(async () => {
  await s3?.close();
  rmSync(folderRoot, { recursive: true, force: true });
});

describe.each(["folder", "s3"])("%s backend", (name) => {
  const backend = () => backends.find((b) => b.name === name)!;

  test("stores a sniffed image under the spec's key and reads it back, whole and by range", async () => {
    const png = makePng(64, 48);
    const result = await storeUpload(backend().storage, iteratorOf([png]), { keyFor: keyFor("before") });
    expect(result).toMatchObject({ ok: true, contentType: "image/png", kind: "image", size: png.length });
    if (!result.ok) throw new Error("unreachable");
    expect(result.key).toMatch(new RegExp(`^${customerId}/${visitId}/before_\\d+\\.png$`));
    expect(await backend().listKeys()).toContain(result.key);

    const whole = await backend().storage.get(result.key);
    expect(whole?.size).toBe(png.length);
    expect(Buffer.compare(await readAll(whole!.body), png)).toBe(0);

    const part = await backend().storage.get(result.key, { start: 10, end: 29 });
    expect(part?.size).toBe(png.length);
    expect(Buffer.compare(await readAll(part!.body), png.subarray(10, 30))).toBe(0);

    expect(await backend().storage.stat(result.key)).toEqual({ size: png.length });
    await backend().storage.delete(result.key);
    expect(await backend().storage.get(result.key)).toBeNull();
    expect(await backend().storage.stat(result.key)).toBeNull();
    expect(await backend().listKeys()).not.toContain(result.key);
  });

  test("streams a video in many chunks (multipart on S3) and keeps every byte", async () => {
    const size = 12 * MiB + 123;
    s3Commands.length = 0;
    const result = await storeUpload(backend().storage, iteratorOf(generatedBytes(MP4_HEADER, size, 64 * 1024)), {
      keyFor: keyFor("after"),
    });
    expect(result).toMatchObject({ ok: true, contentType: "video/mp4", kind: "video", size });
    if (name === "s3") {
      expect(s3Commands.filter((c) => c === "UploadPartCommand")).toHaveLength(3);
      expect(s3Commands).toContain("CompleteMultipartUploadCommand");
    }
    if (!result.ok) throw new Error("unreachable");
    expect(result.key).toMatch(/\/after_\d+\.mp4$/);
    const tail = await backend().storage.get(result.key, { start: size - 100, end: size - 1 });
    expect(tail?.size).toBe(size);
    expect(await readAll(tail!.body)).toEqual(Buffer.alloc(100, 0x2a));
    const head = await backend().storage.get(result.key, { start: 0, end: MP4_HEADER.length - 1 });
    expect(Buffer.compare(await readAll(head!.body), MP4_HEADER)).toBe(0);
    await backend().storage.delete(result.key);
  });

  test("refuses 50 MB + 1 byte while streaming and stores nothing", async () => {
    const before = await backend().listKeys();
    let pulled = 0;
    const source = (async function* () {
      for await (const chunk of generatedBytes(MP4_HEADER, MAX_UPLOAD_BYTES + 1, MiB)) {
        pulled += chunk.byteLength;
        yield chunk;
      }
    })();
    s3Commands.length = 0;
    const result = await storeUpload(backend().storage, source, { keyFor: keyFor("after") });
    expect(result).toEqual({ ok: false, reason: "too-large" });
    // It stopped at the limit: the byte past it was the last one read.
    expect(pulled).toBe(MAX_UPLOAD_BYTES + 1);
    expect(await backend().listKeys()).toEqual(before);
    if (name === "s3") {
      // Streamed as a multipart upload, which was then aborted (its parts dropped).
      expect(s3Commands).toContain("UploadPartCommand");
      expect(s3Commands).toContain("AbortMultipartUploadCommand");
      expect(s3Commands).not.toContain("CompleteMultipartUploadCommand");
    }
  });

  test("accepts exactly 50 MB", async () => {
    const result = await storeUpload(backend().storage, iteratorOf(generatedBytes(MP4_HEADER, MAX_UPLOAD_BYTES, MiB)), {
      keyFor: keyFor("after"),
    });
    expect(result).toMatchObject({ ok: true, size: MAX_UPLOAD_BYTES });
    if (result.ok) await backend().storage.delete(result.key);
  });

  test("refuses a text file named .jpg (the bytes decide, not the name) and stores nothing", async () => {
    const before = await backend().listKeys();
    const text = Buffer.from("These are not the droppings you are looking for.\n".repeat(200));
    const result = await storeUpload(backend().storage, iteratorOf([text]), { keyFor: keyFor("before") });
    expect(result).toEqual({ ok: false, reason: "not-media" });
    expect(await backend().listKeys()).toEqual(before);
  });

  test("refuses other recognised types that are not images or videos (a PDF)", async () => {
    const pdf = Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n".repeat(50), "latin1");
    const result = await storeUpload(backend().storage, iteratorOf([pdf]), { keyFor: keyFor("before") });
    expect(result).toEqual({ ok: false, reason: "not-media" });
  });

  test("an empty file is refused", async () => {
    const result = await storeUpload(backend().storage, iteratorOf([]), { keyFor: keyFor("before") });
    expect(result).toEqual({ ok: false, reason: "empty" });
  });

  test("a body that breaks off mid-upload leaves nothing behind", async () => {
    const before = await backend().listKeys();
    const source = (async function* () {
      let sent = 0;
      for await (const chunk of generatedBytes(MP4_HEADER, 20 * MiB, MiB)) {
        sent += chunk.byteLength;
        if (sent > 7 * MiB) throw new Error("connection reset");
        yield chunk;
      }
    })();
    const result = await storeUpload(backend().storage, source, { keyFor: keyFor("after") });
    expect(result).toEqual({ ok: false, reason: "failed" });
    expect(await backend().listKeys()).toEqual(before);
  });

  test("keys that could escape the storage are rejected", async () => {
    await expect(backend().storage.get("../../etc/passwd")).rejects.toThrow(/Invalid storage key/);
    await expect(backend().storage.delete(`${customerId}/../x`)).rejects.toThrow(/Invalid storage key/);
  });
});

test("the folder backend leaves no partial file when refused", async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "uploads-"));
  try {
    const storage = createFolderStorage(root);
    const result = await storeUpload(storage, iteratorOf(generatedBytes(MP4_HEADER, 10 * MiB, MiB)), {
      keyFor: keyFor("after"),
      maxBytes: 5 * MiB,
    });
    expect(result).toEqual({ ok: false, reason: "too-large" });
    expect(listFiles(root)).toEqual([]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

describe("parseRangeHeader", () => {
  test.each([
    [null, { kind: "whole" }],
    ["bytes=0-99", { kind: "partial", range: { start: 0, end: 99 } }],
    ["bytes=900-", { kind: "partial", range: { start: 900, end: 999 } }],
    ["bytes=-100", { kind: "partial", range: { start: 900, end: 999 } }],
    ["bytes=-5000", { kind: "partial", range: { start: 0, end: 999 } }],
    ["bytes=990-5000", { kind: "partial", range: { start: 990, end: 999 } }],
    ["bytes=1000-", { kind: "unsatisfiable" }],
    ["bytes=-0", { kind: "unsatisfiable" }],
    ["bytes=0-9,20-29", { kind: "whole" }],
    ["items=0-9", { kind: "whole" }],
    ["bytes=50-10", { kind: "whole" }],
    ["bytes=abc", { kind: "whole" }],
    ["bytes=0-9, 5-19", { kind: "whole" }],
  ] as const)("%s on 1000 bytes", (header, expected) => {
    expect(parseRangeHeader(header, 1000)).toEqual(expected);
  });

  test("an open-ended range is capped", () => {
    expect(parseRangeHeader("bytes=100-", 10_000, 1000)).toEqual({ kind: "partial", range: { start: 100, end: 1099 } });
    expect(parseRangeHeader("bytes=100-5000", 10_000, 1000)).toEqual({
      kind: "partial",
      range: { start: 100, end: 5000 },
    });
  });
});
