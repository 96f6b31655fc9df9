import path from "node:path";
import { generate } from "orval";
import { describeGenerator } from "../support/generated-clients.ts";

// orval 8.38 with its fetch client, one file. orval bakes the base URL into the client: here it comes from the spec's
// templated server with `base_url` set, as a team sets it to its deployment.
describeGenerator({
  name: "orval (fetch client, base URL from the spec's server)",
  async generate(dir, spec, baseUrl) {
    await generate(
      {
        input: { target: spec },
        output: {
          target: path.join(dir, "api.ts"),
          client: "fetch",
          mode: "single",
          baseUrl: { getBaseUrlFromSpecification: true, index: 1, variables: { base_url: baseUrl } },
        },
      },
      dir,
    );
  },
  app: `import { getFile, getFileDownloadUrl, updateFile } from "./api.ts";
import { AUTH, FILE_ID, LABELS, UNKNOWN_ID, observe } from "./observe.ts";

const options = { headers: AUTH };
// @ts-expect-error labels are strings in the spec
void (() => updateFile(FILE_ID, { labels: [1] }, options));

await observe({
  metadata: () => getFile(FILE_ID, options),
  update: () => updateFile(FILE_ID, { labels: LABELS }, options),
  metadataAfter: () => getFile(FILE_ID, options),
  download: () => getFileDownloadUrl(FILE_ID, options),
  unknownId: () => getFile(UNKNOWN_ID, options),
  unknownIdEncodedByApp: () => getFile(encodeURIComponent(UNKNOWN_ID), options),
});
`,
  deviations: {
    unknownId: {
      sees: /"status":404/,
      why: "it interpolates path parameters without percent-encoding them, so an id with `/` becomes two segments",
    },
  },
  workarounds: { unknownIdEncodedByApp: { fixes: "unknownId", how: "pass encodeURIComponent(id)" } },
});
