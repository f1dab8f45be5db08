/**
 * Reads a request body as raw bytes, stopping as soon as it passes `limit` bytes. A declared
 * Content-Length over the limit is refused before a byte is read; a chunked or lying body is
 * cut off while streaming, so an endless body never fills the memory.
 *
 * The bytes are returned untouched: a webhook signature covers exactly what was sent.
 */
export class BodyTooLargeError extends Error {
  constructor(public readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

export async function readBodyWithLimit(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) throw new BodyTooLargeError(limit);
  if (!request.body) return new Uint8Array(0);

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
