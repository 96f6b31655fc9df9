import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_RESPONSE_BYTES, readLimited } from "../../src/response-limit.ts";

const bytes = (...values: number[]) => new Uint8Array(values);
/** A body of these chunks, recording whether the reader cancelled it. */
function body(...chunks: unknown[]) {
  const state = { cancelled: false, pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[state.pulled++];
      if (next === undefined) controller.close();
      else controller.enqueue(next as Uint8Array);
    },
    cancel: () => void (state.cancelled = true),
  });
  return { stream, state };
}

describe("readLimited", () => {
  it("reads no body as no bytes", async () => {
    expect(await readLimited(null, 10)).toEqual({ bytes: new Uint8Array(0), cut: false });
    expect(await readLimited(undefined, 10)).toEqual({ bytes: new Uint8Array(0), cut: false });
  });

  it("gives a one-chunk body back as it is, not copied", async () => {
    const chunk = bytes(1, 2, 3);
    const { stream } = body(chunk);
    const read = await readLimited(stream, 10);
    expect(read.bytes).toBe(chunk);
    expect(read.cut).toBe(false);
  });

  it("joins chunks in order", async () => {
    const { stream } = body(bytes(1, 2), bytes(3), bytes(4, 5, 6));
    expect(await readLimited(stream, 10)).toEqual({ bytes: bytes(1, 2, 3, 4, 5, 6), cut: false });
  });

  it("reads a body of exactly the limit whole", async () => {
    const { stream, state } = body(bytes(1, 2), bytes(3, 4));
    expect(await readLimited(stream, 4)).toEqual({ bytes: bytes(1, 2, 3, 4), cut: false });
    expect(state.cancelled).toBe(false);
  });

  it("cuts a longer body at the limit, reads no further and cancels the rest", async () => {
    const { stream, state } = body(bytes(1, 2), bytes(3, 4, 5), bytes(6), bytes(7));
    expect(await readLimited(stream, 4)).toEqual({ bytes: bytes(1, 2, 3, 4), cut: true });
    expect(state.cancelled).toBe(true);
    // The chunk past the limit was the last one read.
    expect(state.pulled).toBeLessThanOrEqual(3);
  });

  it("cuts within the first chunk", async () => {
    const { stream } = body(bytes(1, 2, 3, 4, 5));
    expect(await readLimited(stream, 2)).toEqual({ bytes: bytes(1, 2), cut: true });
  });

  it("counts a chunk that is not bytes (a stream made by hand) as its UTF-8", async () => {
    const { stream } = body("hé", bytes(33));
    expect(await readLimited(stream, 10)).toEqual({ bytes: bytes(104, 0xc3, 0xa9, 33), cut: false });
  });

  it("passes a broken stream's error on", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.error(new TypeError("terminated")),
    });
    await expect(readLimited(stream, 10)).rejects.toThrow("terminated");
  });

  it("defaults to 1 MiB", () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(1_048_576);
  });
});
