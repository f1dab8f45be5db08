/**
 * Bytes of real media formats, generated rather than stored. Large bodies are produced lazily
 * from one reused chunk, so that the test process itself never holds them.
 */

import { crc32, deflateSync } from "node:zlib";

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of `width` x `height` pixels in one colour (8-bit RGB). */
export function makePng(width: number, height: number, rgb: [number, number, number] = [40, 156, 97]) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(pixels)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

export const TINY_PNG = makePng(2, 2);

/** The start of an MP4 file: an `ftyp` box (brand mp42), which is what file-type recognises. */
export const MP4_HEADER = Buffer.from("00000018667479706d7034320000000069736f6d6d703432", "hex");

export const MiB = 1024 * 1024;

/**
 * `size` bytes beginning with `header`, in chunks of at most `chunkSize`, generated on demand.
 * Each chunk is a new buffer, like the chunks of a real request body (a reused one would make
 * code that keeps every chunk look free).
 */
export async function* generatedBytes(header: Uint8Array, size: number, chunkSize = 256 * 1024): AsyncGenerator<Uint8Array> {
  const filler = new Uint8Array(chunkSize).fill(0x2a);
  yield header;
  let remaining = size - header.byteLength;
  while (remaining > 0) {
    const n = Math.min(remaining, chunkSize);
    yield filler.slice(0, n);
    remaining -= n;
  }
}

/** A whole multipart/form-data body with one file, streamed; returns the stream and its type. */
export function multipartBody(options: {
  field: string;
  filename: string;
  contentType: string;
  bytes: AsyncIterable<Uint8Array>;
  extraFields?: Record<string, string>;
}): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----test-boundary-${Math.random().toString(16).slice(2)}`;
  const encoder = new TextEncoder();
  async function* parts() {
    for (const [name, value] of Object.entries(options.extraFields ?? {})) {
      yield encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    yield encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${options.field}"; filename="${options.filename}"\r\nContent-Type: ${options.contentType}\r\n\r\n`,
    );
    yield* options.bytes;
    yield encoder.encode(`\r\n--${boundary}--\r\n`);
  }
  const iterator = parts();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The byte at absolute position `p` of `patternedBytes`' output, after the header. */
export const patternByte = (p: number) => p % 251;

/** Like generatedBytes, but every byte depends on its position, so ranges can be checked. */
export async function* patternedBytes(header: Uint8Array, size: number, chunkSize = 256 * 1024): AsyncGenerator<Uint8Array> {
  yield header;
  for (let position = header.byteLength; position < size; position += chunkSize) {
    const n = Math.min(chunkSize, size - position);
    const chunk = new Uint8Array(n);
    for (let i = 0; i < n; i++) chunk[i] = patternByte(position + i);
    yield chunk;
  }
}

/** What patternedBytes(header, size) produces between start and end (inclusive). */
export function expectedSlice(header: Uint8Array, start: number, end: number) {
  const out = new Uint8Array(end - start + 1);
  for (let p = start; p <= end; p++) out[p - start] = p < header.byteLength ? header[p] : patternByte(p);
  return out;
}
