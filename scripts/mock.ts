/** `npm run mock`: bundles the spec and serves it with Prism until Ctrl-C, on a free port or the one given. */
import { port, portInUse, readCommandLine } from "../lib/command-line.ts";
import { exitOnInterrupt, runCommand } from "../lib/process.ts";
import { bin, bundledSpec, fromRoot, repoRoot } from "./lib/paths.ts";
import { startPrism } from "./lib/prism.ts";

const { values } = readCommandLine({
  name: "mock",
  invocation: "npm run mock --",
  about: "Bundles the spec, then serves it with a Prism mock on 127.0.0.1 until Ctrl-C. Any bearer token is accepted.",
  // The sandbox's port rules (lib/command-line.ts port): the two servers of the repo are started alike.
  flags: { port: { takes: "N", default: "0", parse: port, help: "port to listen on; 0 picks a free one (printed)" } },
});

exitOnInterrupt();
const built = await runCommand(bin("tsx"), [fromRoot("scripts/build-spec.ts")], { cwd: repoRoot });
if (built.code !== 0) {
  process.stderr.write(built.output);
  process.exit(1);
}
let mock;
try {
  mock = await startPrism(bundledSpec.yaml, [], { port: values.port });
} catch (error) {
  // A port that is taken is the user's setting: one line. Anything else is Prism's, with its output.
  if (/EADDRINUSE/.test((error as Error).message)) {
    console.error(`mock: ${portInUse(values.port, "127.0.0.1")}`);
    process.exit(2);
  }
  throw error;
}
console.log(
  `Prism mock of the File Library listening at ${mock.url} (pid ${mock.pid}). Any bearer token is accepted. Ctrl-C stops it.`,
);
