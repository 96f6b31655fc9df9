/** `npm run build`: the client package in dist/: ESM JavaScript and .d.ts from src/, the generated types, the bundled spec. */
import { readCommandLine } from "../lib/command-line.ts";
import { buildSpec } from "./lib/build-spec.ts";
import { fromRoot } from "./lib/paths.ts";

readCommandLine({
  name: "build",
  invocation: "npm run build --",
  about:
    "Builds the client package in dist/: its ESM, CommonJS and Node builds, their .d.ts, the fake (file-library-kit/testing), the bundled spec.",
  flags: {},
});
// Loaded after the flags: it brings the TypeScript compiler (dts-bundle-generator), a second of start-up --help need not pay.
const { buildClient } = await import("./lib/build-client.ts");
for (const step of [buildSpec, () => buildClient(fromRoot("dist"))]) {
  const { ok, message } = await step();
  (ok ? console.log : console.error)(message);
  if (!ok) process.exit(1);
}
