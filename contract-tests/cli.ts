#!/usr/bin/env node
/**
 * `file-library-contract`: checks a live File Library server against the bundled spec, with the key in the
 * environment. Exit codes: 0 every check passed, 1 a check failed, 2 the run could not start.
 * `file-library-contract proxy`: checks real traffic through a validating proxy (see `proxy --help`).
 * `file-library-contract replay`: replays a recording of the proxy, or a HAR, against a deployment (see `replay --help`).
 */
import { exitOnInterrupt } from "../lib/process.ts";
import { runContractCommand } from "./runner/command.ts";

const NAME = "file-library-contract";
const [first, ...rest] = process.argv.slice(2);

if (first === "proxy") {
  // Loaded only for it (undici, the judge); it handles its own signals: on Ctrl-C it still writes its reports.
  const { runProxyCommand } = await import("./runner/proxy-command.ts");
  process.exit(await runProxyCommand(rest, NAME));
}
if (first === "replay") {
  // Loaded only for it, as the proxy is; it installs no signal handler: Ctrl-C ends it at once, its reports unwritten.
  const { runReplayCommand } = await import("./runner/replay-command.ts");
  process.exit(await (await import("./runner/pact-replay.ts")).replayPactOr(rest, NAME, runReplayCommand));
}

if (first === "pact") process.exit(await (await import("./runner/pact-command.ts")).runPactCommand(rest, NAME));

// The command line owns this process: Ctrl-C stops the suite it started, then exits 130.
exitOnInterrupt();

process.exit(
  await runContractCommand(process.argv.slice(2), {
    name: NAME,
    usage: `${NAME} --base-url URL --file-id ID [flags]   (FILE_LIBRARY_API_KEY in the environment)
       ${NAME} proxy --upstream URL [--record FILE] [-- command...]   (check real traffic; see proxy --help)
       ${NAME} replay FILE --base-url URL   (replay a recording against a deployment; see replay --help)
       ${NAME} pact export RECORDING --consumer NAME | pact check PACT_FILE   (Pact files out and in; see pact --help)`,
    intro: `Runs the File Library contract checks against a live server and writes JUnit, JSON and Markdown
reports. Read-only by default; FILE_LIBRARY_WRITE_CHECKS=1 also checks updates, and puts the file back.`,
  }),
);
