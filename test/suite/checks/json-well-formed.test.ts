import { describe, expect, it } from "vitest";
import { jsonWellFormed } from "../../../contract-tests/checks/json-well-formed.ts";
import { answer, metadataOf, spec, type AnswerParts } from "../../support/exchange-builder.ts";

const judge = (parts: AnswerParts) => jsonWellFormed.inspect(answer(parts), spec);
const none = { failures: [], warnings: [] };
const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));

describe("json_well_formed", () => {
  it("fails a JSON answer that is not UTF-8, showing the byte, its offset and the bytes around it", () => {
    expect(judge({ bytes: bytes('{"name":"Caf', [0xe9], '.pdf"}'), contentType: "application/json" })).toEqual({
      failures: ['the body is not UTF-8: byte \\xE9 at offset 12: {"name":"Caf\\xE9.pdf"}'],
      warnings: [],
    });
    // Any +json type is JSON, and so is an error answer.
    expect(
      judge({ status: 422, bytes: bytes('{"message":"', [0xff], '"}'), contentType: "application/problem+json" })
        .failures,
    ).toEqual(['the body is not UTF-8: byte \\xFF at offset 12: {"message":"\\xFF"}']);
  });

  it("fails an object that names a member twice, quoting the name", () => {
    expect(judge({ text: '{"id":"doc-1","size":"1234","size":1234}', contentType: "application/json" })).toEqual({
      failures: [
        'the body names "size" twice in one object: JSON.parse keeps the last value, other parsers the first, strict ones fail',
      ],
      warnings: [],
    });
  });

  it("fails a JSON answer that starts with a byte-order mark, and takes one inside a string", () => {
    expect(
      judge({ bytes: bytes([0xef, 0xbb, 0xbf], JSON.stringify(metadataOf())), contentType: "application/json" }),
    ).toEqual({
      failures: ["the body starts with a byte-order mark, which JSON must not (RFC 8259)"],
      warnings: [],
    });
    expect(
      judge({ bytes: bytes('{"id":"doc-1","labels":["', [0xef, 0xbb, 0xbf], '"]}'), contentType: "application/json" }),
    ).toEqual(none);
  });

  it("passes well-formed JSON, with no warning", () => {
    expect(judge({ json: metadataOf({ name: "Café.pdf" }) })).toEqual(none);
  });

  it("leaves to other checks a body that is not JSON, a cut one, and one of another media type", () => {
    expect(judge({ text: '{"size":1,"size":2', contentType: "application/json" })).toEqual(none);
    expect(judge({ bytes: bytes('{"a":"', [0xe9]), contentType: "application/json", cut: 7 })).toEqual(none);
    expect(judge({ bytes: bytes("caf", [0xe9]), contentType: "text/plain" })).toEqual(none);
    expect(judge({ text: '{"a":1,"a":2}', contentType: "text/plain" })).toEqual(none);
  });
});
