import { describe, expect, it } from "vitest";
import { escapeSegment, followRefs, nodeAt, unescapeSegment } from "../../lib/openapi/json-pointer.ts";

const doc = {
  paths: { "/files/{id}": { get: { responses: { "200": { $ref: "#/components/responses/Ok" } } } } },
  components: {
    responses: {
      Ok: { $ref: "#/components/responses/Real" },
      Real: { description: "ok" },
      Loop: { $ref: "#/components/responses/Loop" },
    },
    "a~b": { x: 1 },
  },
};

describe("json-pointer", () => {
  it("escapes ~ before / and unescapes in the reverse order", () => {
    expect(escapeSegment("/files/{id}")).toBe("~1files~1{id}");
    expect(escapeSegment("a~/b")).toBe("a~0~1b");
    expect(unescapeSegment("a~0~1b")).toBe("a~/b");
    // ~01 is "~1" escaped, not "/".
    expect(unescapeSegment("~01")).toBe("~1");
  });

  it("reads the node a pointer names, with or without #, and undefined where it leads nowhere", () => {
    expect(nodeAt(doc, "#/components/responses/Real")).toEqual({ description: "ok" });
    expect(nodeAt(doc, "/components/a~0b/x")).toBe(1);
    expect(nodeAt(doc, `/paths/${escapeSegment("/files/{id}")}/get/responses/200`)).toEqual({
      $ref: "#/components/responses/Ok",
    });
    expect(nodeAt(doc, "/components/none/deeper")).toBeUndefined();
  });

  it("follows $refs to the node and says where it was found; a circle ends", () => {
    expect(followRefs(doc, { $ref: "#/components/responses/Ok" }, "#/start")).toEqual({
      node: { description: "ok" },
      pointer: "#/components/responses/Real",
    });
    expect(followRefs(doc, { description: "here" }, "#/start")).toEqual({
      node: { description: "here" },
      pointer: "#/start",
    });
    expect(followRefs(doc, { $ref: "#/components/responses/Loop" }, "#/start", 5)).toEqual({
      node: { $ref: "#/components/responses/Loop" },
      pointer: "#/components/responses/Loop",
    });
  });
});
