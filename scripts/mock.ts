/** `npm run mock`: bundles the spec and serves it with Prism on a free port until Ctrl-C. */
import { exitOnInterrupt, runCommand } from "../lib/process.ts";
import { bin, bundledSpec, fromRoot, repoRoot } from "./lib/paths.ts";
import { startPrism } from "./lib/prism.ts";

exitOnInterrupt();
const built = await runCommand(bin("tsx"), [fromRoot("scripts/build-spec.ts")], { cwd: repoRoot });
if (built.code !== 0) {
  process.stderr.write(built.output);
  process.exit(1);
}
const mock = await startPrism(bundledSpec.yaml);
console.log(`Prism mock of the File Library listening at ${mock.url} (pid ${mock.pid}). Any bearer token is accepted. Ctrl-C stops it.`);
