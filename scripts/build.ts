/** `npm run build`: the client package in dist/: ESM JavaScript and .d.ts from src/, the generated types, the bundled spec. */
import { buildClient } from "./lib/build-client.ts";
import { buildSpec } from "./lib/build-spec.ts";
import { fromRoot } from "./lib/paths.ts";

for (const step of [buildSpec, () => buildClient(fromRoot("dist"))]) {
  const { ok, message } = await step();
  (ok ? console.log : console.error)(message);
  if (!ok) process.exit(1);
}
