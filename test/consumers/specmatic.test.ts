import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoFixtures } from "../../sandbox/fixtures.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";
import { ensureBundle, sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import { fencedBlocks } from "../support/doc-blocks.ts";
import {
  javaFor,
  pairedExampleNames,
  runSpecmatic,
  sampleCommands,
  SPECMATIC_JAR,
  specmaticArguments,
} from "../support/specmatic.ts";

// Specmatic 2.55 runs the spec's own paired examples from the bundle alone, with no examples or config of its own:
// one file's metadata, update and download, and an unknown id, with the key; the missing-key examples with a key
// the service does not know (Specmatic always sends the bearer header, so "missing" is played by "wrong"; both get 401).
const java = await javaFor("test/consumers/specmatic.test.ts");

// The two commands docs/for-other-teams.md gives other teams are the runs below (its sample is run here, not again
// in doc-samples-run.test.ts): the filter of each is read from the page, and the rest of each must be what runs here.
const PAGE = "docs/for-other-teams.md";
const sample = fencedBlocks(PAGE).find((b) => b.code.includes("specmatic.jar test"));
if (!sample)
  throw new Error(`${PAGE} has no block with "specmatic.jar test": this test runs that sample's two commands`);
const commands = sampleCommands(sample.code);
const [keyedCommand, unauthorizedCommand] = commands;
const documentedExamples = (command: typeof keyedCommand) =>
  /^--filter=EXAMPLE-NAME='([^']*)'$/.exec(command?.words.at(-1) ?? "")?.[1]?.split(",") ?? [];

// Read without Java too: the page must not drift from the runs where Java is missing.
describe(`${PAGE}'s Specmatic sample`, () => {
  it("is the two runs below: the same command, the keyed examples with the page sandbox's key, the missing-key ones with another", () => {
    ensureBundle();
    const names = pairedExampleNames(bundledSpec.json);
    expect(commands).toHaveLength(2);
    // The page's sandbox serves with dev-key (FILE_LIBRARY_API_KEY=dev-key npx file-library-sandbox --port 4010); the
    // runs here use the test sandbox's own key in its place, and the page's wrong key as it is.
    expect(keyedCommand!.env).toEqual({ bearerAuth: "dev-key" });
    expect(Object.keys(unauthorizedCommand!.env)).toEqual(["bearerAuth"]);
    expect(unauthorizedCommand!.env.bearerAuth).toMatch(/^(?!dev-key$)\S+$/);
    expect(new Set(documentedExamples(keyedCommand))).toEqual(new Set(names.keyed));
    expect(documentedExamples(unauthorizedCommand)).toEqual(names.unauthorized);
    for (const command of [keyedCommand!, unauthorizedCommand!]) {
      const ours = specmaticArguments({
        jar: "node_modules/specmatic/specmatic.jar",
        spec: "dist/openapi.json",
        baseUrl: "http://127.0.0.1:4010",
        examples: documentedExamples(command),
      });
      expect(command.words).toEqual(["java", ...ours]);
    }
    expect(SPECMATIC_JAR.endsWith("node_modules/specmatic/specmatic.jar")).toBe(true);
  });
});

describe.skipIf(!java)("Specmatic from the bundled spec alone", { timeout: 120_000 }, () => {
  let names: ReturnType<typeof pairedExampleNames>;
  beforeAll(async () => {
    ensureBundle();
    names = pairedExampleNames(bundledSpec.json);
  });

  it("the spec pairs examples for the metadata, the update, the download, an unknown id and a missing key", () => {
    expect(names.keyed).toEqual(expect.arrayContaining(["quarterlyReport", "unknownId"]));
    expect(names.unauthorized).toEqual(["missingKey"]);
    // The sandbox's demo data holds the file they name, so that `npx file-library-sandbox` serves them as it starts.
    const unknown = names.ids.filter((id) => !demoFixtures.some((file) => file.id === id));
    expect(new Set(unknown), "ids of the examples that the demo data lacks (only the unknown id may be)").toEqual(
      new Set(["file_missing"]),
    );
  });

  describe("against the sandbox", () => {
    let server: Awaited<ReturnType<typeof sandbox>>;
    beforeAll(async () => {
      server = await sandbox();
    });
    afterAll(() => server?.close());

    it("passes every scenario of the examples run with the key (both reads, the updates, the download, the unknown id)", async () => {
      const run = await runSpecmatic(java!, {
        spec: bundledSpec.json,
        baseUrl: server.baseUrl,
        token: SANDBOX_KEY,
        examples: documentedExamples(keyedCommand),
      });
      // Every request carries an id of the spec's examples: none was made up because an example did not pair.
      const sent = new Set(
        [...run.output.matchAll(/^\s+(?:GET|PUT) \/studio\/v1\/library\/files\/([^/\s]+)/gm)].map((m) => m[1]),
      );
      expect([...sent].sort(), run.output).toEqual([...new Set(names.ids)].sort());
      // getFile and the download: quarterlyReport and unknownId; the update: those two and its other named bodies.
      expect(run.tests, run.output).toBeGreaterThanOrEqual(6);
      expect({ code: run.code, failures: run.failures }, run.output).toEqual({ code: 0, failures: 0 });
    });

    it("passes the missing-key scenario of every operation with a key the service does not know", async () => {
      const run = await runSpecmatic(java!, {
        spec: bundledSpec.json,
        baseUrl: server.baseUrl,
        token: unauthorizedCommand!.env.bearerAuth!,
        examples: documentedExamples(unauthorizedCommand),
      });
      expect({ code: run.code, tests: run.tests, failures: run.failures }, run.output).toEqual({
        code: 0,
        tests: 3,
        failures: 0,
      });
    });
  });

  // The same runs catch a server that breaks the contract: Specmatic is a real check here, not a formality.
  it.each([
    ["metadata-size-as-string", "keyed", /size/],
    ["any-bearer-passes", "unauthorized", /expected status 401/],
  ] as const)("fails against a sandbox with the fault %s", async (fault, which, says) => {
    const broken = await sandbox({ fault });
    try {
      const token = which === "keyed" ? SANDBOX_KEY : "not-the-sandbox-key";
      const run = await runSpecmatic(java!, {
        spec: bundledSpec.json,
        baseUrl: broken.baseUrl,
        token,
        examples: names[which],
      });
      expect(run.code, run.output).not.toBe(0);
      expect(run.failures, run.output).toBeGreaterThan(0);
      expect(run.output).toMatch(says);
    } finally {
      await broken.close();
    }
  });
});
