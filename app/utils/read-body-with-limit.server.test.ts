import { describe, expect, it } from "vitest";
import { BodyTooLargeError, readBodyWithLimit } from "./read-body-with-limit.server";

function streamOf(chunks: Uint8Array[]) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

function post(body: BodyInit | null, headers: Record<string, string> = {}) {
  return new Request("http://localhost/hook", {
    method: "POST",
    body,
    headers,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

describe("readBodyWithLimit", () => {
  it("returns the exact bytes of a body within the limit", async () => {
    const bytes = new Uint8Array([0, 255, 10, 13, 0xc3, 0x28]);
    expect(await readBodyWithLimit(post(bytes), 6)).toEqual(bytes);
  });

  it("returns an empty body for a request without one", async () => {
    expect(await readBodyWithLimit(post(null), 10)).toEqual(new Uint8Array(0));
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    const request = post("x", { "Content-Length": "11" });
    await expect(readBodyWithLimit(request, 10)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(request.bodyUsed).toBe(false);
  });

  it("cuts off a streamed body that passes the limit, whatever it declares", async () => {
    const chunks = Array.from({ length: 5 }, () => new Uint8Array(4));
    await expect(readBodyWithLimit(post(streamOf(chunks)), 10)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(await readBodyWithLimit(post(streamOf(chunks)), 20)).toHaveLength(20);
  });
});
