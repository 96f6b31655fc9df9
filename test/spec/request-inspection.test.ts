import { describe, expect, it } from "vitest";
import { loadBundledSpec } from "../../lib/openapi/load.ts";
import { createRequestInspector } from "../../lib/openapi/request-inspection.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";

const inspect = createRequestInspector(loadBundledSpec(bundledSpec.json, "npm run build:spec"));
const FILE = "/studio/v1/library/files/doc-1";
const key = { authorization: "Bearer k-1" };
const json = { ...key, "content-type": "application/json; charset=utf-8" };

describe("createRequestInspector: what a valid request is, for the sandbox and the proxy", () => {
  it.each([
    ["GET", FILE, key, undefined, []],
    ["PUT", FILE, json, '{"labels":["a"],"publicUrl":"https://x.test/a"}', []],
    ["GET", "/studio/v1/library/folders", key, undefined, ["operation_exists"]],
    ["DELETE", FILE, key, undefined, ["operation_exists"]],
    ["GET", "/studio/v1/library/files/%E0%A4%A", key, undefined, ["path_parameters_valid"]],
    ["GET", FILE, {}, undefined, ["auth_sent"]],
    ["GET", FILE, { authorization: "Basic dXNlcg==" }, undefined, ["auth_sent"]],
    ["PUT", FILE, key, '{"labels":[]}', ["request_content_type"]],
    ["PUT", FILE, { ...key, "content-type": "text/plain" }, '{"labels":[]}', ["request_content_type"]],
    ["PUT", FILE, json, "labels=a", ["request_body_valid"]],
    ["PUT", FILE, json, undefined, ["request_body_valid"]],
    ["PUT", FILE, json, '{"labels":"a,b"}', ["request_body_valid"]],
    ["PUT", FILE, json, '{"labels":[1]}', ["request_body_valid"]],
    ["PUT", FILE, {}, "nope", ["auth_sent", "request_content_type"]],
  ] as const)("%s %s %j %s: %j", (method, rawPath, headers, body, rules) => {
    const inspected = inspect({ method, rawPath, headers, body });
    expect(inspected.findings.map((f) => f.rule)).toEqual(rules);
  });

  it("names the operation, decodes the path parameter, parses a JSON body, and says what is wrong with one", () => {
    const ok = inspect({
      method: "PUT",
      rawPath: "/studio/v1/library/files/a%2Fb",
      headers: json,
      body: '{"labels":["x"]}',
    });
    expect(ok).toMatchObject({
      operationId: "updateFile",
      params: { file_id: "a/b" },
      mediaType: "application/json",
      json: { labels: ["x"] },
      findings: [],
    });
    const [notJson] = inspect({ method: "PUT", rawPath: FILE, headers: json, body: "{" }).findings;
    expect(notJson).toMatchObject({ rule: "request_body_valid", parseError: expect.any(String) });
    expect(notJson!.problem).toMatch(/^the body is not valid JSON: /);
    // Other members are ignored (docs/decisions.md, D05): only the fields the schema names are checked.
    const [wrong] = inspect({
      method: "PUT",
      rawPath: FILE,
      headers: json,
      body: '{"publicUrl":1,"labels":"a","fileId":1}',
    }).findings;
    expect(wrong!.problem).toBe("the body does not match its schema: check publicUrl, labels");
    expect(wrong!.issues!.length).toBeGreaterThanOrEqual(2);
    expect(inspect({ method: "POST", rawPath: FILE, headers: key, body: undefined })).toMatchObject({
      operationId: undefined,
      allow: ["GET", "PUT"],
    });
  });
});
