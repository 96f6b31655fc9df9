import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { exampleFileId } from "../../contract-tests/run/example-file-id.ts";
import { runCommand } from "../../lib/process.ts";
import { bin, bundledSpec, fromRoot } from "../../scripts/lib/paths.ts";
import { sandbox, SANDBOX_KEY } from "./sandbox.ts";

// What other teams do with the bundled spec: generate a client with their tool, compile it under tsc --strict, and
// call the service with it. Each generator's test (test/consumers/generator-*.test.ts) says how to generate and what its
// app looks like; this file runs them the same way.

/** The steps an app takes with a generated client, in order, each against the sandbox. */
export const STEPS = ["metadata", "update", "metadataAfter", "download", "unknownId"] as const;
/** One step. */
export type Step = (typeof STEPS)[number];
/** What a step saw: the status and body the client handed back, or the error it threw. */
export interface Seen {
  status?: number;
  data?: unknown;
  error?: string;
}

/** A known way a tool gets a step wrong: pinned, so that a fix upstream shows as a failing test. */
export interface Deviation {
  /** What the step sees instead, matched against the error or, as JSON, against status and body. */
  sees: RegExp;
  /** The tool's bug, named, with its upstream issue where there is one. */
  why: string;
}

/** A way around a deviation that the docs give: a step of its own in the app, which must work as `fixes` would. */
export interface Workaround {
  /** The step it stands in for. */
  fixes: Step;
  /** What the app does differently, as docs/for-other-teams.md says it. */
  how: string;
}

/** How one generator is tried. */
export interface GeneratorCase {
  /** The tool and the options it is tried with, as the test names it. */
  name: string;
  /** Generates a client from the bundle into `dir`; `baseUrl` is the sandbox's, for tools that fix it then. */
  generate(dir: string, spec: string, baseUrl: string): Promise<void>;
  /** Checks on the generated source (that the spec's server came through, say); optional. */
  inspect?(dir: string): Promise<void>;
  /**
   * The app: a TypeScript module that imports the client and `./observe.ts`, and calls `observe` with one function per
   * step. It must also hold a `// @ts-expect-error` line, so that compiling proves the spec's types came through.
   */
  app: string;
  /** The steps this tool gets wrong; every other step must work. */
  deviations?: Partial<Record<Step, Deviation>>;
  /** Further steps of the app, by name, each a documented way around a deviation. */
  workarounds?: Record<string, Workaround>;
}

const LABELS = ["generated", "client"];
// An id with a slash: a client that does not percent-encode path parameters sends it as two segments.
const UNKNOWN_ID = "no/such-file";

/** The module every app imports: the constants of the run and `observe`, which prints what each step saw. */
const observeModule = (fileId: string) => `// Written by test/support/generated-clients.ts.
export const BASE_URL = process.env.FILE_LIBRARY_BASE_URL!;
export const API_KEY = process.env.FILE_LIBRARY_API_KEY!;
export const AUTH = { authorization: \`Bearer \${API_KEY}\` };
export const FILE_ID = ${JSON.stringify(fileId)};
export const UNKNOWN_ID = ${JSON.stringify(UNKNOWN_ID)};
export const LABELS = ${JSON.stringify(LABELS)};

type Seen = { status?: number; data?: unknown; error?: string };
type Steps = Record<${STEPS.map((s) => JSON.stringify(s)).join(" | ")}, () => Promise<Seen>> & Record<string, () => Promise<Seen>>;

/** Runs the steps in order; prints one JSON line of what each saw. */
export async function observe(steps: Steps): Promise<void> {
  const seen: Record<string, Seen> = {};
  for (const [step, run] of Object.entries(steps)) {
    try {
      seen[step] = await run();
    } catch (error) {
      const status = (error as { response?: { status?: unknown }; status?: unknown }).response?.status ?? (error as { status?: unknown }).status;
      seen[step] = { error: String(error), ...(typeof status === "number" ? { status } : {}) };
    }
  }
  console.log("OBSERVED " + JSON.stringify(seen));
}
`;

const TSC_FLAGS = [
  "--strict",
  "--noEmit",
  "--target",
  "es2022",
  "--module",
  "esnext",
  "--moduleResolution",
  "bundler",
  "--lib",
  "es2022,dom,dom.iterable",
  "--types",
  "node",
  "--allowImportingTsExtensions",
  "--skipLibCheck",
];

/** What a step must see when the tool gets it right. */
function expectWorking(step: Step, seen: Seen, fileId: string, baseUrl: string): void {
  const where = `${step}: ${JSON.stringify(seen)}`;
  if (step === "unknownId") {
    // A client that throws on an error status names 422 in its error; one that hands back the body alone (Kubb's
    // fetch client) shows the sandbox's error code.
    const rejected =
      seen.status === 422 ||
      (seen.status === undefined && (seen.data as { code?: unknown } | undefined)?.code === "file_not_found");
    expect(rejected, where).toBe(true);
    return;
  }
  expect(seen.error, where).toBeUndefined();
  if (seen.status !== undefined) expect(seen.status, where).toBe(200);
  switch (step) {
    case "metadata":
      expect(seen.data, where).toMatchObject({ id: fileId });
      break;
    case "metadataAfter":
      expect(seen.data, where).toMatchObject({ id: fileId, labels: LABELS });
      break;
    case "download":
      expect(typeof seen.data === "string" && seen.data.startsWith(`${baseUrl}/sandbox/content/`), where).toBe(true);
      break;
  }
}

/**
 * The tests of one generator: it generates from the bundle, the app compiles under tsc --strict, and the app's calls
 * against a sandbox each work, but for the tool's pinned deviations, which must still show.
 */
export function describeGenerator(tool: GeneratorCase): void {
  describe(tool.name, { timeout: 120_000 }, () => {
    let dir: string;
    let fileId: string;
    let server: Awaited<ReturnType<typeof sandbox>>;
    beforeAll(async () => {
      server = await sandbox();
      // Inside the repo's node_modules/.cache: the generated code imports the tools' runtimes from node_modules.
      const root = fromRoot("node_modules", ".cache", "file-library-generators");
      await mkdir(root, { recursive: true });
      dir = await mkdtemp(path.join(root, `${tool.name.replace(/\W+/g, "-")}-`));
      fileId = exampleFileId(JSON.parse(await readFile(bundledSpec.json, "utf8")));
      await writeFile(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
      await writeFile(path.join(dir, "observe.ts"), observeModule(fileId));
      await writeFile(path.join(dir, "app.ts"), tool.app);
    });
    afterAll(async () => {
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("generates a client from the bundle that compiles under tsc --strict, the spec's types included", async () => {
      await tool.generate(dir, bundledSpec.json, server.baseUrl);
      await tool.inspect?.(dir);
      const compiled = await runCommand(bin("tsc"), [...TSC_FLAGS, "app.ts"], { cwd: dir });
      expect(compiled.code, compiled.output).toBe(0);
    });

    const deviations = Object.entries(tool.deviations ?? {}) as Array<[Step, Deviation]>;
    const workarounds = Object.keys(tool.workarounds ?? {});
    const title = [
      `calls the sandbox: ${STEPS.join(", ")}`,
      deviations.length ? `known deviations: ${deviations.map(([s]) => s).join(", ")}` : "",
      workarounds.length ? `documented workarounds: ${workarounds.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join("; ");
    it(title, async () => {
      const run = await runCommand(bin("tsx"), ["app.ts"], {
        cwd: dir,
        env: { ...process.env, FILE_LIBRARY_BASE_URL: server.baseUrl, FILE_LIBRARY_API_KEY: SANDBOX_KEY },
      });
      const line = /^OBSERVED (.*)$/m.exec(run.output);
      expect(line, run.output).not.toBeNull();
      const seen = JSON.parse(line![1]!) as Record<string, Seen>;
      expect(Object.keys(seen)).toEqual([...STEPS, ...workarounds]);
      for (const step of STEPS) {
        const deviation = tool.deviations?.[step];
        if (!deviation) {
          expectWorking(step, seen[step]!, fileId, server.baseUrl);
          continue;
        }
        const shown = seen[step]!.error ?? JSON.stringify(seen[step]);
        expect(
          shown,
          `${step} no longer shows the pinned deviation (${deviation.why}): fixed upstream? Remove it from the test and docs/for-other-teams.md`,
        ).toMatch(deviation.sees);
      }
      for (const [name, workaround] of Object.entries(tool.workarounds ?? {})) {
        expectWorking(workaround.fixes, seen[name]!, fileId, server.baseUrl);
      }
    });
  });
}
