import { describe, expect, it } from "vitest";
import { isUuid, nearIds } from "../../contract-tests/inputs/near-ids.ts";

describe("nearIds: ids a lookup that is not exact takes for the real one", () => {
  it("are the real id in the other case, trimmed-away spaces, a percent escape, an accent and full width, each named", () => {
    expect(nearIds("doc-1")).toEqual([
      { id: "DOC-1", kind: "in the other case" },
      { id: " doc-1", kind: "with a space before it" },
      { id: "doc-1 ", kind: "with a space after it" },
      { id: "%64oc-1", kind: "with its first character percent-encoded in the id" },
      { id: "d\u0301oc-1", kind: "with an accent on its first character" },
      { id: "\uff44oc-1", kind: "with its first character in full width" },
    ]);
  });

  it("swap each letter's case, encode a first character of several bytes whole, and keep one that has no full width", () => {
    expect(nearIds("Ab-c")[0]!.id).toBe("aB-C");
    // A byte under 0x10 is written with two hex digits.
    expect(nearIds("\tz").find((near) => near.kind.includes("percent"))!.id).toBe("%09z");
    // Only ASCII letters change case; é has no full-width form, so that candidate is the real id and is left out.
    expect(nearIds("éx").map((near) => near.id)).toEqual(["éX", " éx", "éx ", "%C3%A9x", "é\u0301x"]);
    const fullWidth = (id: string) => nearIds(id).find((near) => near.kind.includes("full width"))?.id;
    expect([fullWidth("!z"), fullWidth("~z"), fullWidth(" z")]).toEqual(["\uff01z", "\uff5ez", undefined]);
  });

  it("leave out a candidate that is the real id itself or the same as an earlier one", () => {
    // Digits have no case: that candidate is the id again, and is left out.
    expect(nearIds("123").map((near) => near.kind)).not.toContain("in the other case");
    expect(nearIds("123").every((near) => near.id !== "123")).toBe(true);
    expect(nearIds("")).toEqual([
      { id: " ", kind: "with a space before it" },
      { id: "\u0301", kind: "with an accent on its first character" },
    ]);
  });

  it("mark a UUID in the other case as the same id (RFC 9562 compares UUIDs without regard to case); any other id's other case is not", () => {
    const uuid = "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d";
    expect(nearIds(uuid)[0]).toEqual({
      id: uuid.toUpperCase(),
      kind: "in the other case (the same UUID: RFC 9562)",
      sameId: true,
    });
    expect(nearIds(uuid.toUpperCase())[0]).toMatchObject({ id: uuid, sameId: true });
    expect(
      nearIds(uuid)
        .slice(1)
        .some((near) => near.sameId),
    ).toBe(false);
    expect(nearIds("doc-1")[0]!.sameId).toBeUndefined();
  });

  it("isUuid: 8-4-4-4-12 hex digits in any case, nothing else", () => {
    expect(
      [
        "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d",
        "3B1F6C9E-2D4A-4F5B-9C8D-7E6F5A4B3C2D",
        "00000000-0000-0000-0000-000000000000",
      ].every(isUuid),
    ).toBe(true);
    for (const id of [
      "3b1f6c9e2d4a4f5b9c8d7e6f5a4b3c2d",
      "{3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d}",
      "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2g",
      " 3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d",
      "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d\n",
      "doc-1",
    ])
      expect(isUuid(id), id).toBe(false);
  });
});
