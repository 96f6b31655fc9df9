import { describe, expect, it } from "vitest";
import { fileIdKey, sameFileId } from "../../../contract-tests/checks/same-file-id.ts";

describe("same-file-id", () => {
  const uuid = "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d";

  it("takes a UUID in any letter case as one id (RFC 9562), whatever its version", () => {
    expect(sameFileId(uuid, uuid.toUpperCase())).toBe(true);
    expect(sameFileId("3B1F6C9E-2d4a-4F5B-9c8d-7E6F5A4B3C2D", uuid)).toBe(true);
    expect(fileIdKey(uuid.toUpperCase())).toBe(uuid);
    expect(sameFileId("00000000-0000-0000-0000-00000000000A", "00000000-0000-0000-0000-00000000000a")).toBe(true);
  });

  it("takes any other id as it is spelt: another case, a UUID with braces or without hyphens, one digit short", () => {
    expect(sameFileId("Doc-1", "doc-1")).toBe(false);
    expect(fileIdKey("Doc-1")).toBe("Doc-1");
    expect(sameFileId(`{${uuid}}`, `{${uuid.toUpperCase()}}`)).toBe(false);
    expect(sameFileId(uuid.replaceAll("-", ""), uuid.replaceAll("-", "").toUpperCase())).toBe(false);
    expect(sameFileId(uuid.slice(1), uuid.slice(1).toUpperCase())).toBe(false);
    expect(sameFileId(` ${uuid}`, ` ${uuid.toUpperCase()}`)).toBe(false);
    expect(sameFileId("doc-1", "doc-1")).toBe(true);
  });
});
