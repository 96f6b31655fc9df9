import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import { runCommand } from "../../lib/process.ts";
import { bin } from "../../scripts/lib/paths.ts";
import { describeGenerator } from "../support/generated-clients.ts";

// openapi-zod-client 1.18 with its defaults: a Zodios client (axios underneath) that validates answers with zod 3.
describeGenerator({
  name: "openapi-zod-client (defaults)",
  async generate(dir, spec) {
    const generated = await runCommand(bin("openapi-zod-client"), [spec, "-o", path.join(dir, "api.ts")], { cwd: dir });
    expect(generated.code, generated.output).toBe(0);
  },
  async inspect(dir) {
    // Each server error has its number: with a 5XX range it wrote `status: NaN` (astahmer/openapi-zod-client#332).
    const source = await readFile(path.join(dir, "api.ts"), "utf8");
    expect(source).not.toContain("NaN");
    expect(source).toMatch(/status: 503,/);
  },
  app: `import { createApiClient } from "./api.ts";
import { AUTH, BASE_URL, FILE_ID, LABELS, UNKNOWN_ID, observe } from "./observe.ts";

const api = createApiClient(BASE_URL, { axiosConfig: { headers: AUTH } });
// @ts-expect-error labels are strings in the spec
void (() => api.updateFile({ labels: [1] }, { params: { file_id: FILE_ID } }));

await observe({
  metadata: async () => ({ data: await api.getFile({ params: { file_id: FILE_ID } }) }),
  update: async () => ({ data: await api.updateFile({ labels: LABELS }, { params: { file_id: FILE_ID } }) }),
  metadataAfter: async () => ({ data: await api.getFile({ params: { file_id: FILE_ID } }) }),
  download: async () => ({ data: await api.getFileDownloadUrl({ params: { file_id: FILE_ID } }) }),
  unknownId: async () => ({ data: await api.getFile({ params: { file_id: UNKNOWN_ID } }) }),
  unknownIdEncodedByApp: async () => ({ data: await api.getFile({ params: { file_id: encodeURIComponent(UNKNOWN_ID) } }) }),
});
`,
  deviations: {
    unknownId: {
      sees: /status code 404/,
      why: "Zodios puts path parameters into the URL without percent-encoding them, so an id with `/` becomes two segments (the router's 404)",
    },
  },
  workarounds: { unknownIdEncodedByApp: { fixes: "unknownId", how: "pass encodeURIComponent(id)" } },
});
