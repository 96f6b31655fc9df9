import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeBody } from "../../contract-tests/proxy/decode-body.ts";

const captured = (bytes: Uint8Array, cut = false) => ({ bytes, total: bytes.length, cut });
const json = Buffer.from('{"name":"café"}');

describe("decodeBody: a captured answer as the proxy's checks read it", () => {
  it.each([
    ["none", undefined, json],
    ["identity", "identity", json],
    ["gzip", "gzip", gzipSync(json)],
    ["x-gzip", "x-gzip", gzipSync(json)],
    ["deflate", "deflate", deflateSync(json)],
    ["br", "br", brotliCompressSync(json)],
    ["two codings, undone from the last applied", "deflate, gzip", gzipSync(deflateSync(json))],
  ])("decodes %s", (_name, encoding, bytes) => {
    expect(decodeBody(captured(bytes), encoding, 1_000)).toEqual({ text: '{"name":"café"}', invalidUtf8: undefined });
  });

  it("says where a body stops being UTF-8, as the suite does", () => {
    expect(decodeBody(captured(Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d])), undefined, 1_000)).toMatchObject({
      invalidUtf8: 'byte \\xE9 at offset 2: {"\\xE9"}',
    });
  });

  it.each([
    [
      "a body cut at the capture limit",
      captured(json, true),
      undefined,
      "the body is over 1000 bytes (FILE_LIBRARY_MAX_RESPONSE_BYTES)",
    ],
    [
      "a gzip bomb",
      captured(gzipSync(Buffer.alloc(50_000, 0x61))),
      "gzip",
      "the body is over 1000 bytes once decoded (FILE_LIBRARY_MAX_RESPONSE_BYTES)",
    ],
    [
      "a coding the proxy does not know",
      captured(json),
      "zstd",
      "the body is encoded as zstd, which the proxy does not decode",
    ],
    ["bytes that are not what they claim", captured(json), "gzip", "the body does not decode as gzip"],
  ])("leaves %s unchecked, saying why", (_name, body, encoding, reason) => {
    expect(decodeBody(body, encoding, 1_000)).toEqual({ unchecked: reason });
  });
});
