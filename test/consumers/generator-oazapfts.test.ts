import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import { runCommand } from "../../lib/process.ts";
import { bin } from "../../scripts/lib/paths.ts";
import { describeGenerator } from "../support/generated-clients.ts";

// oazapfts 7.5 with its defaults: one module of functions over @oazapfts/runtime.
describeGenerator({
  name: "oazapfts (defaults)",
  async generate(dir, spec) {
    const generated = await runCommand(bin("oazapfts"), [spec, path.join(dir, "api.ts")], { cwd: dir });
    expect(generated.code, generated.output).toBe(0);
  },
  async inspect(dir) {
    // The spec's first server is a plain URL, so the client's default works as it is.
    expect(await readFile(path.join(dir, "api.ts"), "utf8")).toContain('baseUrl: "http://127.0.0.1:4010"');
  },
  app: `import * as api from "./api.ts";
import { API_KEY, BASE_URL, FILE_ID, LABELS, UNKNOWN_ID, observe } from "./observe.ts";

api.defaults.baseUrl = BASE_URL;
api.defaults.headers = { authorization: \`Bearer \${API_KEY}\` };
// @ts-expect-error labels are strings in the spec
void (() => api.updateFile(FILE_ID, { labels: [1] }));

await observe({
  metadata: () => api.getFile(FILE_ID),
  update: () => api.updateFile(FILE_ID, { labels: LABELS }),
  metadataAfter: () => api.getFile(FILE_ID),
  download: () => api.getFileDownloadUrl(FILE_ID),
  unknownId: () => api.getFile(UNKNOWN_ID),
});
`,
});
