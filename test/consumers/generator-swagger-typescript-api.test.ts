import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import { generateApi } from "swagger-typescript-api";
import { describeGenerator } from "../support/generated-clients.ts";

// swagger-typescript-api 13.13 with the fetch HTTP client, one file.
describeGenerator({
  name: "swagger-typescript-api (fetch client)",
  async generate(dir, spec) {
    await generateApi({ input: spec, output: dir, fileName: "api.ts", httpClientType: "fetch", silent: true });
  },
  async inspect(dir) {
    // It takes the first server's URL as it is: that must be a URL fetch can parse, not `{base_url}`.
    expect(await readFile(path.join(dir, "api.ts"), "utf8")).toContain(
      'public baseUrl: string = "http://127.0.0.1:4010"',
    );
  },
  app: `import { Api } from "./api.ts";
import { AUTH, BASE_URL, FILE_ID, LABELS, UNKNOWN_ID, observe } from "./observe.ts";

const api = new Api({ baseUrl: BASE_URL, baseApiParams: { headers: AUTH } }).studio;
// @ts-expect-error labels are strings in the spec
void (() => api.updateFile(FILE_ID, { labels: [1] }));
// Its default client, made with no options, must reach a URL (the spec's first server), not fail to parse one.
const defaultClient = new Api();
if (!/^https?:\\/\\//.test(defaultClient.baseUrl)) throw new Error("the default base URL is " + defaultClient.baseUrl);

// A failed call throws the response itself; a body that failed to parse is in .error.
const seen = async (call: Promise<{ status: number; data: unknown; error: unknown }>) => {
  const r = await call.catch((thrown: { status: number; data: unknown; error: unknown }) => thrown);
  return r.error instanceof Error ? { status: r.status, error: String(r.error) } : { status: r.status, data: r.data ?? r.error };
};

await observe({
  metadata: () => seen(api.getFile(FILE_ID)),
  update: () => seen(api.updateFile(FILE_ID, { labels: LABELS })),
  metadataAfter: () => seen(api.getFile(FILE_ID)),
  download: () => seen(api.getFileDownloadUrl(FILE_ID)),
  unknownId: () => seen(api.getFile(UNKNOWN_ID)),
  downloadAsText: () => seen(api.getFileDownloadUrl(FILE_ID, { format: "text" })),
  unknownIdEncodedByApp: () => seen(api.getFile(encodeURIComponent(UNKNOWN_ID))),
});
`,
  deviations: {
    download: {
      sees: /SyntaxError/,
      why: 'it reads every answer as JSON (format: "json"), the text/plain download too (related: acacode/swagger-typescript-api#274)',
    },
    unknownId: {
      sees: /"status":404/,
      why: "it interpolates path parameters without percent-encoding them, so an id with `/` becomes two segments",
    },
  },
  workarounds: {
    downloadAsText: { fixes: "download", how: 'pass { format: "text" } to getFileDownloadUrl' },
    unknownIdEncodedByApp: { fixes: "unknownId", how: "pass encodeURIComponent(id)" },
  },
});
