import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { looksLikePact, writePactAsRecording } from "../pact/pact-as-recording.ts";
import { PactFileError, readPact } from "../pact/read-pact.ts";
import { processEnvironment, readSettings } from "../run/settings.ts";
import { writeWhole } from "../report/write-whole.ts";

/** The flags of `replay` that take a value: the word after one is no FILE. */
const REPLAY_VALUE_FLAGS = new Set(["--base-url", "--report-dir", "--max-requests"]);

/**
 * `replay FILE` where FILE is a Pact file (told by its content): its HTTP interactions are replayed as the lines of a
 * recording, line N its interaction N, by `replay` itself; the provider states are assumed present, and the output
 * and reports say so. Any other FILE goes to `replay` as it is.
 */
export async function replayPactOr(
  argv: string[],
  name: string,
  replay: (argv: string[], name: string) => Promise<number>,
  env: Record<string, string | undefined> = processEnvironment(),
): Promise<number> {
  const at = argv.findIndex((arg, i) => !arg.startsWith("-") && !REPLAY_VALUE_FLAGS.has(argv[i - 1] ?? ""));
  if (at < 0 || argv.includes("--help") || argv.includes("-h") || !(await looksLikePact(argv[at]!)))
    return replay(argv, name);
  const file = argv[at]!;
  let pact;
  try {
    pact = await readPact(file);
  } catch (error) {
    if (!(error instanceof PactFileError)) throw error;
    console.error(`${name} replay: cannot start: ${error.message}`);
    return 2;
  }
  if (pact.interactions.length === 0) {
    console.error(
      `${name} replay: cannot start: the pact ${file} holds no HTTP interaction: there is nothing to replay`,
    );
    return 2;
  }
  const states = [...new Set(pact.interactions.flatMap((i) => i.states))];
  const statesLine =
    states.length === 0
      ? "the pact names no provider state"
      : `provider states assumed present (not set up by the replay; the sandbox's --fixtures makes them so): ${states.join("; ")}`;
  console.error(
    `${name} replay: ${file} is a pact between ${pact.consumer} and ${pact.provider}: its ${pact.interactions.length} HTTP interaction(s) are replayed as lines 1 to ${pact.interactions.length}; ${statesLine}`,
  );
  const dir = await mkdtemp(path.join(os.tmpdir(), "file-library-pact-replay-"));
  try {
    const recording = path.join(dir, `${path.basename(file).replace(/\.[^.]*$/, "")}.pact.jsonl`);
    await writePactAsRecording(pact, recording);
    const code = await replay(
      argv.map((arg, i) => (i === at ? recording : arg)),
      name,
    );
    await notePactInReports(argv, env, {
      file,
      consumer: pact.consumer,
      provider: pact.provider,
      interactions: pact.interactions.map((i) => i.description),
      statesAssumed: states,
    });
    return code;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Adds to replay-summary.json and .md which pact was replayed, its interactions by line, and the states assumed. */
async function notePactInReports(
  argv: string[],
  env: Record<string, string | undefined>,
  note: { file: string; consumer: string; provider: string; interactions: string[]; statesAssumed: string[] },
): Promise<void> {
  const flag = argv.findIndex((arg) => arg === "--report-dir" || arg.startsWith("--report-dir="));
  const given =
    flag < 0 ? undefined : argv[flag]!.includes("=") ? argv[flag]!.slice("--report-dir=".length) : argv[flag + 1];
  let reportDir: string;
  try {
    reportDir = path.resolve(given ?? readSettings(env).reportDir ?? "reports");
  } catch {
    return;
  }
  const json = path.join(reportDir, "replay-summary.json");
  const summary = await readFile(json, "utf8").then(
    (text) => JSON.parse(text) as Record<string, unknown>,
    () => undefined,
  );
  if (!summary) return;
  await writeWhole(json, `${JSON.stringify({ ...summary, recording: note.file, pact: note }, null, 2)}\n`);
  const states = note.statesAssumed.length ? note.statesAssumed.map((s) => `\`${s}\``).join(", ") : "none named";
  const lines = note.interactions.map((d, n) => `- line ${n + 1}: ${d.replace(/\|/g, "\\|")}`).join("\n");
  const md = path.join(reportDir, "replay-summary.md");
  const text = await readFile(md, "utf8").catch(() => "");
  await writeWhole(
    md,
    `${text}\nThe recording replayed is the pact ${note.file} between ${note.consumer} and ${note.provider}, one line per interaction. Provider states assumed present, not set up: ${states}.\n\n${lines}\n`,
  );
}
