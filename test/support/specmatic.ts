import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { loadBundledSpec } from "../../lib/openapi/load.ts";
import { runCommand } from "../../lib/process.ts";
import { missing } from "./missing.ts";

// Specmatic as other teams run it: its jar (from the npm package `specmatic`) on Java 17, on the bundled spec alone.

/** The jar inside the npm package; its `specmatic` bin exits 0 even when tests fail, so the tests call java directly. */
export const SPECMATIC_JAR = path.join(
  path.dirname(createRequire(import.meta.url).resolve("specmatic/package.json")),
  "specmatic.jar",
);

/** Java as users' machines have it: JAVA_HOME first, then `java` on PATH; under CI=true a missing one fails. */
export async function javaFor(file: string): Promise<string | undefined> {
  const home = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, "bin", "java") : undefined;
  if (home && existsSync(home)) return home;
  const onPath = await runCommand("java", ["-version"]).then(
    (r) => r.code === 0,
    () => false,
  );
  if (onPath) return "java";
  return missing(
    file,
    "no Java found (JAVA_HOME, or java on PATH)",
    "Install Java 17 (apt-get install -y openjdk-17-jre-headless) or set JAVA_HOME",
  );
}

/**
 * The spec's named examples of the file id, split as Specmatic runs them: those a 401 answers (no valid key) and the
 * rest; and the ids they send.
 */
export function pairedExampleNames(specFile: string): { keyed: string[]; unauthorized: string[]; ids: string[] } {
  const spec = loadBundledSpec(specFile, "`npm run build:spec` writes it.");
  type Operation = { responses: Record<string, Record<string, unknown>> };
  const document = spec.document as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components: { parameters: { FileId: { examples: Record<string, { value: string }> } } };
  };
  const examples = document.components.parameters.FileId.examples;
  const named = Object.keys(examples);
  const unauthorized = new Set<string>();
  for (const operationId of spec.operationIds()) {
    const { path, method, statuses } = spec.operation(operationId);
    if (!statuses.includes("401")) continue;
    const answer = spec.deref(document.paths[path]![method.toLowerCase()]!.responses["401"]!);
    for (const media of Object.values((answer.content ?? {}) as Record<string, { examples?: object }>)) {
      for (const name of Object.keys(media.examples ?? {})) unauthorized.add(name);
    }
  }
  return {
    keyed: named.filter((n) => !unauthorized.has(n)),
    unauthorized: named.filter((n) => unauthorized.has(n)),
    ids: Object.values(examples).map((e) => e.value),
  };
}

/**
 * The JVM's start-up settings for a run of a few seconds: the first JIT tier only, and the serial collector. They halve
 * a run's CPU (12.0 and 12.3 s against 6.3 and 6.5 s, 8 scenarios against the sandbox, side by side) and change
 * nothing Specmatic does; the npm test's 2 cores are busy with other test files meanwhile.
 */
const JVM_FLAGS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

/** The arguments of java for `specmatic test` of the named examples only, as docs/for-other-teams.md writes them. */
export const specmaticArguments = ({
  jar,
  spec,
  baseUrl,
  examples,
}: {
  jar: string;
  spec: string;
  baseUrl: string;
  examples: string[];
}): string[] => [
  "-jar",
  jar,
  "test",
  spec,
  `--testBaseURL=${baseUrl}`,
  `--filter=EXAMPLE-NAME='${examples.join(",")}'`,
];

/** A command of a shell sample: its variable assignments, then its words, quotes removed (the forms the docs use). */
export interface SampleCommand {
  env: Record<string, string>;
  words: string[];
}

/** The commands of a shell sample: comment lines and blank lines left out, lines ending in a backslash joined. */
export function sampleCommands(code: string): SampleCommand[] {
  const lines = code
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  return lines.map((line) => {
    const words = [...line.matchAll(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g)].map((m) =>
      m[0].replace(/"([^"]*)"|'([^']*)'/g, (_, d?: string, q?: string) => d ?? q ?? ""),
    );
    const env: Record<string, string> = {};
    while (/^\w+=/.test(words[0] ?? "")) {
      const [name, ...value] = words.shift()!.split("=");
      env[name!] = value.join("=");
    }
    return { env, words };
  });
}

/** One Specmatic run: its exit code, its counts and what it printed. */
export interface SpecmaticRun {
  code: number;
  tests: number;
  failures: number;
  output: string;
}

/**
 * Runs `specmatic test` on `spec` against `baseUrl`, with `token` as the bearer key (Specmatic reads it from the
 * variable named after the security scheme) and only the scenarios of the named examples. Its reports go to a
 * temporary folder, not the repo.
 */
export async function runSpecmatic(
  java: string,
  { spec, baseUrl, token, examples }: { spec: string; baseUrl: string; token: string; examples: string[] },
): Promise<SpecmaticRun> {
  const cwd = await mkdtemp(path.join(os.tmpdir(), "file-library-specmatic-"));
  try {
    const { code, output } = await runCommand(
      java,
      [...JVM_FLAGS, ...specmaticArguments({ jar: SPECMATIC_JAR, spec, baseUrl, examples })],
      { cwd, env: { ...process.env, bearerAuth: token } },
    );
    const counts = /Tests run: (\d+), Successes: \d+, Failures: (\d+)/.exec(output);
    return { code, tests: Number(counts?.[1] ?? 0), failures: Number(counts?.[2] ?? 0), output };
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}
