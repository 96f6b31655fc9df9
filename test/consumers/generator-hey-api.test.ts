import path from "node:path";
import { readFile } from "node:fs/promises";
import { expect } from "vitest";
import { createClient } from "@hey-api/openapi-ts";
import { describeGenerator } from "../support/generated-clients.ts";

// @hey-api/openapi-ts 0.95 with its fetch client.
describeGenerator({
  name: "@hey-api/openapi-ts (client-fetch)",
  async generate(dir, spec) {
    // An absolute path: a relative one reads to hey-api as the name of a spec in its online registry.
    await createClient({
      input: path.resolve(spec),
      output: { path: path.join(dir, "client") },
      plugins: ["@hey-api/client-fetch"],
      logs: { level: "silent", file: false },
    } as never);
  },
  async inspect(dir) {
    const sdk = await readFile(path.join(dir, "client", "sdk.gen.ts"), "utf8");
    for (const operation of ["getFile", "updateFile", "getFileDownloadUrl"])
      expect(sdk).toMatch(new RegExp(`^export const ${operation} = `, "m"));
  },
  app: `import { getFile, getFileDownloadUrl, updateFile } from "./client/index.ts";
import { client } from "./client/client.gen.ts";
import { AUTH, BASE_URL, FILE_ID, LABELS, UNKNOWN_ID, observe } from "./observe.ts";

client.setConfig({ baseUrl: BASE_URL, headers: AUTH });
// @ts-expect-error labels are strings in the spec
void (() => updateFile({ path: { file_id: FILE_ID }, body: { labels: [1] } }));

const seen = async (call: Promise<{ data?: unknown; error?: unknown; response: Response }>) => {
  const { data, error, response } = await call;
  return { status: response.status, data: data ?? error };
};

await observe({
  metadata: () => seen(getFile({ path: { file_id: FILE_ID } })),
  update: () => seen(updateFile({ path: { file_id: FILE_ID }, body: { labels: LABELS } })),
  metadataAfter: () => seen(getFile({ path: { file_id: FILE_ID } })),
  download: () => seen(getFileDownloadUrl({ path: { file_id: FILE_ID } })),
  unknownId: () => seen(getFile({ path: { file_id: UNKNOWN_ID } })),
});
`,
});
