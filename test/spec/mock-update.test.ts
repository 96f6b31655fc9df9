// covers: openapi/components/schemas/UpdateFileRequest.yaml, openapi/components/responses/UpdateRejected.yaml, openapi/components/schemas/ErrorBody.yaml, scripts/lib/prism.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../lib/process.ts";
import { startPrism } from "../../scripts/lib/prism.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";
import { ensureBundle } from "../support/sandbox.ts";

// What `npm run mock` answers an update, from the spec alone (docs/decisions.md, D05 and D13):
// Prism 5 answers a request that breaks the spec with the 422 made from ErrorBody's own example (not from the 422's
// named examples), so that example must be a validation error's, not the unknown id's.
let mock: ServerProcess;
beforeAll(async () => {
  ensureBundle();
  mock = await startPrism(bundledSpec.yaml);
}, 60_000);
afterAll(() => mock?.stop());

const put = async (body: unknown) => {
  const response = await fetch(`${mock.url}/studio/v1/library/files/file_01HZX3K9Q4T7V2M8N6P5R1S0AB`, {
    method: "PUT",
    headers: { authorization: "Bearer any-key", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
};

describe("the Prism mock's update", () => {
  it.each([
    ["labels as a number", { labels: 5 }],
    ["publicUrl as a number", { publicUrl: 5 }],
    ["labels items as numbers", { labels: [1] }],
  ])("answers a malformed body (%s) with 422 that speaks of the body, not of a missing file", async (_, body) => {
    const { status, text } = await put(body);
    expect(status).toBe(422);
    expect(text).not.toMatch(/file_not_found|no file|not exist|missing/i);
    expect(JSON.parse(text)).toHaveProperty("detail");
  });

  it.each([
    // The npm ai21 SDK's files.update({ fileId, labels: ["a"], publicUrl: null }), byte for byte.
    [
      "the official TypeScript SDK's body",
      '{"fileId":"file_01HZX3K9Q4T7V2M8N6P5R1S0AB","labels":["a"],"publicUrl":null}',
    ],
    ["the Python SDK's labels-only body (1.0.0 to 2.2.4)", '{"publicUrl": null, "labels": ["a"]}'],
    ["a public URL without a scheme", '{"publicUrl":"www.example.com"}'],
    ["labels given as null", '{"labels":null}'],
  ])("accepts %s with 200", async (_, raw) => {
    expect((await put(JSON.parse(raw))).status).toBe(200);
  });
});
