import { mkdir } from "node:fs/promises";
import path from "node:path";
import { redactSecrets } from "../../lib/redact-secrets.ts";
import { redactValue } from "../../src/redact.ts";
import { ExportError, exportPact } from "../pact/export-pact.ts";
import { judgePact } from "../pact/judge-pact.ts";
import { FINDINGS_KEPT, findingLine, pactSummary, writePactReports } from "../pact/pact-reports.ts";
import { MAX_PACT_BYTES, PactFileError, readPact } from "../pact/read-pact.ts";
import { RecordingError } from "../recording/read-recording.ts";
import { processEnvironment } from "../run/settings.ts";
import { type FileCommand, parseFileCommand, refusalOf, settingsAndSpec } from "./command-args.ts";
import { writeWhole } from "../report/write-whole.ts";

/** Interactions an export writes at most, unless --max-interactions says otherwise. */
export const DEFAULT_MAX_INTERACTIONS = 10_000;

/** The most a pact checked may hold, in MiB, as the help says it. */
const MAX_PACT_MIB = MAX_PACT_BYTES / 1024 / 1024;

/** What `pact --help` prints. */
export function pactHelp(name: string): string {
  return `Usage: ${name} pact export RECORDING --consumer NAME [--provider NAME] [-o FILE] [--pact-version 4|3]
       ${name} pact check PACT_FILE [--report-dir DIR]

Turns what an app did into a Pact file: RECORDING is a recording of \`proxy --record FILE\` or a browser's HAR
export. One interaction per distinct request the app sent with the key (as a replay tells them apart),
described by what the app did ("get file metadata", "update labels") with the provider state it needs
("a file with id doc-1 exists"); the request as sent, Authorization: Bearer <FILE_LIBRARY_API_KEY> standing
for the key (give the verifier the real one: customProviderHeaders); the response held as a replay holds it:
the same status and media type, every JSON member the app got with its type (values may differ), a URL for
the download. Publish it with Pact's own CLI (pact-broker publish).

Flags:
  --consumer NAME         the consumer's name in the pact (required)
  --provider NAME         the provider's name (default: file-library)
  -o, --output FILE       where to write it (default: pacts/CONSUMER-PROVIDER.json)
  --pact-version 4|3      the Pact specification (default: 4)
  --max-interactions N    a recording with more distinct requests is refused (default: ${DEFAULT_MAX_INTERACTIONS})
  -h, --help              show this text

Exit codes: 0 written, 2 not (the recording unreadable, nothing to export, a wrong flag).

\`pact check\` judges another team's Pact file (specification 2 to 4, as pact-js, the Pact core and the MSW
adapter write them) against the spec, with no server: each HTTP interaction's request as the proxy inspects
an app's requests, its response with the checks every answer gets and its body by the documented schema.
A matcher is judged by its example (like("2026-03-04T05:06:07Z") fits created_at; like("1234") does not fit
size). Members and headers the pact leaves out are no finding: a pact says what the consumer relies on.
Reports pact-junit.xml, pact-summary.json and pact-summary.md in --report-dir (default: FILE_LIBRARY_REPORT_DIR,
else reports), which list the first ${FINDINGS_KEPT} findings and count the rest. A pact is read whole, up to ${MAX_PACT_MIB} MiB.
Exit codes: 0 every interaction fits, 1 one does not (each finding names the interaction, the side, the member
and the check), 2 the pact cannot be read (the line or member named), is over ${MAX_PACT_MIB} MiB, or holds no HTTP
interaction.`;
}

/** Runs `pact` from its argv (after the word `pact`); resolves with the exit code. */
export async function runPactCommand(
  argv: string[],
  name: string,
  env: Record<string, string | undefined> = processEnvironment(),
): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    console.log(pactHelp(name));
    return sub === undefined ? 2 : 0;
  }
  if (sub === "export") return runExport(rest, name, env);
  if (sub === "check") return runCheck(rest, name, env);
  console.error(
    `${name} pact: cannot start: no subcommand ${JSON.stringify(sub)}: give export or check (see ${name} pact --help)`,
  );
  return 2;
}

/** `pact export` and `pact check`: one help between them, and each its word for a wrong count of files. */
const pactCommand = (name: string, wrongCount: FileCommand["wrongCount"]): FileCommand => ({
  help: `${name} pact --help`,
  usage: () => pactHelp(name),
  wrongCount,
});

async function runExport(argv: string[], name: string, env: Record<string, string | undefined>): Promise<number> {
  const cannot = refusalOf(`${name} pact export`);
  const parsed = parseFileCommand(
    argv,
    {
      consumer: { type: "string" },
      provider: { type: "string", default: "file-library" },
      output: { type: "string", short: "o" },
      "pact-version": { type: "string", default: "4" },
      "max-interactions": { type: "string", default: String(DEFAULT_MAX_INTERACTIONS) },
      help: { type: "boolean", short: "h", default: false },
    },
    cannot,
    pactCommand(name, (got) => `give one recording (RECORDING), got ${got} (see ${name} pact --help)`),
  );
  if (typeof parsed === "number") return parsed;
  const { values, file } = parsed;
  if (!values.consumer?.trim())
    return cannot(`--consumer NAME is required: the app whose traffic this is (see ${name} pact --help)`);
  if (!values.provider.trim()) return cannot("--provider takes a name, got none");
  if (values["pact-version"] !== "4" && values["pact-version"] !== "3")
    return cannot(`--pact-version takes 4 or 3, got ${JSON.stringify(values["pact-version"])}`);
  if (!/^[1-9]\d*$/.test(values["max-interactions"]))
    return cannot(
      `--max-interactions takes a whole number of at least 1, got ${JSON.stringify(values["max-interactions"])}`,
    );
  const loaded = settingsAndSpec(env, cannot);
  if (typeof loaded === "number") return loaded;
  const { settings, spec } = loaded;
  let result;
  try {
    result = await exportPact({
      file,
      consumer: values.consumer.trim(),
      provider: values.provider.trim(),
      version: values["pact-version"] === "3" ? 3 : 4,
      spec,
      secrets: settings.apiKey ? [settings.apiKey] : [],
      maxInteractions: Number(values["max-interactions"]),
    });
  } catch (error) {
    if (error instanceof RecordingError || error instanceof ExportError) return cannot(error.message);
    throw error;
  }
  const output = path.resolve(
    values.output ?? path.join("pacts", `${fileNamePart(values.consumer)}-${fileNamePart(values.provider)}.json`),
  );
  await mkdir(path.dirname(output), { recursive: true });
  await writeWhole(output, `${JSON.stringify(result.pact, null, 2)}\n`);
  for (const line of result.leftOut) console.error(`${name} pact export: left out: ${line}`);
  console.error(
    `${name} pact export: ${result.pact.interactions.length} interaction(s) from ${result.exchanges} exchange(s) (${result.duplicates} duplicate(s)), written to ${output}`,
  );
  return 0;
}

async function runCheck(argv: string[], name: string, env: Record<string, string | undefined>): Promise<number> {
  const cannot = refusalOf(`${name} pact check`);
  const parsed = parseFileCommand(
    argv,
    { "report-dir": { type: "string" }, help: { type: "boolean", short: "h", default: false } },
    cannot,
    pactCommand(name, (got) => `give one Pact file (PACT_FILE), got ${got} (see ${name} pact --help)`),
  );
  if (typeof parsed === "number") return parsed;
  const { values, file } = parsed;
  const loaded = settingsAndSpec(env, cannot);
  if (typeof loaded === "number") return loaded;
  const { settings, spec } = loaded;
  let pact;
  try {
    pact = await readPact(file);
  } catch (error) {
    if (error instanceof PactFileError) return cannot(error.message);
    throw error;
  }
  if (pact.interactions.length === 0)
    return cannot(
      `${file} holds no HTTP interaction: there is nothing to judge${pact.notHttp.length ? ` (not HTTP: ${pact.notHttp.length})` : ""}`,
    );
  // A pact may hold the key by mistake (a consumer's test that used the real one): no finding shows it.
  const secrets = settings.apiKey ? [settings.apiKey] : [];
  const findings = judgePact(spec, pact.interactions).map((f) => ({
    ...f,
    interaction: redactSecrets(f.interaction, secrets),
    member: redactSecrets(f.member, secrets),
    problem: redactSecrets(f.problem, secrets),
  }));
  const summary = redactValue(pactSummary(file, pact, findings), secrets) as ReturnType<typeof pactSummary>;
  const reportDir = path.resolve(values["report-dir"] ?? settings.reportDir ?? "reports");
  await writePactReports(reportDir, summary);
  for (const finding of findings.slice(0, CONSOLE_FINDINGS))
    console.error(`${name} pact check: FINDING ${findingLine(finding)}`);
  if (findings.length > CONSOLE_FINDINGS) console.error(`${name} pact check: ${furtherFindings(findings.length)}`);
  const fitting = summary.interactions.filter((i) => i.fits).length;
  console.error(
    `${name} pact check: ${summary.verdict}: ${pact.interactions.length} interaction(s) of ${summary.consumer}, ${fitting} fit the spec, ${findings.length} finding(s); reports in ${reportDir}`,
  );
  return findings.length > 0 ? 1 : 0;
}

/** Findings the console lists; the reports list up to FINDINGS_KEPT. */
const CONSOLE_FINDINGS = 50;

/** The line after the console's findings: where the others are, and how many the reports only count. */
const furtherFindings = (count: number) =>
  count > FINDINGS_KEPT
    ? `${count - CONSOLE_FINDINGS} further finding(s): the reports list ${FINDINGS_KEPT - CONSOLE_FINDINGS} of them and count the other ${count - FINDINGS_KEPT}`
    : `${count - CONSOLE_FINDINGS} further finding(s) in the reports`;

/** A name as part of a file name, as pact-js names its files: what a file system may not hold becomes "-". */
const fileNamePart = (name: string) => name.trim().replace(/[^A-Za-z0-9._-]+/g, "-");
