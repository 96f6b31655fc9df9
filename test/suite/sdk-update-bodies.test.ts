import { describe, expect, it } from "vitest";
import { DOCUMENTED_PUBLIC_URL, sdkUpdateBodies } from "../../contract-tests/inputs/sdk-update-bodies.ts";
import { spec } from "../support/exchange-builder.ts";

describe("sdkUpdateBodies: the official SDKs' update bodies, exactly", () => {
  it("without a publicUrl to set: the TypeScript SDK's, fileId in each, and the Python SDK's nulls", () => {
    expect(sdkUpdateBodies("f-1", ["a"]).map((b) => b.json)).toEqual([
      { fileId: "f-1", labels: ["a"] },
      { fileId: "f-1", labels: ["a"], publicUrl: null },
      { publicUrl: null, labels: ["a"] },
      { publicUrl: null, labels: null },
    ]);
  });

  it("with one: those that set it too, and the service's documented example, www.example.com", () => {
    const bodies = sdkUpdateBodies("f-1", ["a"], "https://cdn.test/x").map((b) => b.json);
    expect(bodies.slice(4)).toEqual([
      { fileId: "f-1", labels: ["a"], publicUrl: "https://cdn.test/x" },
      { fileId: "f-1", labels: null, publicUrl: "https://cdn.test/x" },
      { publicUrl: DOCUMENTED_PUBLIC_URL, labels: null },
      { publicUrl: DOCUMENTED_PUBLIC_URL },
    ]);
    expect(DOCUMENTED_PUBLIC_URL).toBe("www.example.com");
  });

  it("are each valid by the spec's UpdateFileRequest, and each names the call that sends it", () => {
    for (const { json, sender } of sdkUpdateBodies("f-1", ["a"], "https://cdn.test/x")) {
      expect(spec.validateRequestBody("updateFile", "application/json", json).valid, sender).toBe(true);
      expect(sender).toMatch(/^the (TypeScript|Python) SDK's files\.update\(/);
    }
  });
});
