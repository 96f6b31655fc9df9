// covers: README.md, docs/, contract-tests/README.md, sandbox/README.md, test/support/doc-blocks.ts
// Every fenced sample of the README, docs/ and the packages' READMEs runs as a reader runs it, and must succeed: in a
// project of its own with the three packages installed from their tarballs, against the packed sandbox on a free
// port. TypeScript runs with Node (a test file with vitest), shell with bash (-e), a command that serves until Ctrl-C
// until it says where it listens, then gets Ctrl-C. A block that is not run says why in a marker before its fence
// (test/support/doc-blocks.ts); a block with neither a runner here nor a marker fails the test.
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  exitCodeOf,
  signalChild,
  startChild,
  startServer,
  waitForOutput,
  type ServerProcess,
} from "../../lib/process.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { fencedBlocks, SAMPLE_PAGES, type DocBlock } from "../support/doc-blocks.ts";
import { installInto } from "../support/packages.ts";
import { PACK_WAIT_MS, packed } from "../support/packed.ts";
import { copyOfRepo, STACK_LINE } from "../support/repo-copy.ts";

/** The key and the file the samples name: the sandbox's demo file, and the key of docs/sandbox.md. */
const KEY = "dev-key";
const DEMO_FILE = "file_01HZX3K9Q4T7V2M8N6P5R1S0AB";
const RUN_TIMEOUT_MS = 150_000;

/** How a sample runs, and what it must say besides succeeding. */
type Runner =
  // `baseUrlInEnv`: the sample reads the service's URL from FILE_LIBRARY_BASE_URL, as its comment says; no other gets it.
  | { as: "node"; says?: RegExp; baseUrlInEnv?: true }
  | { as: "vitest" }
  | { as: "shell"; in?: "project" | "repo"; says?: RegExp }
  | { as: "server"; ready: RegExp };

/** Every sample that runs, by its page and its first line. */
const RUNNERS: Record<string, Runner> = {
  // It reads the demo file, then prints the 422 of an id the service does not know.
  'README.md: import { createFileLibraryClient, UnprocessableEntityError } from "file-library-kit";': {
    as: "node",
    baseUrlInEnv: true,
    says: /^422 /m,
  },
  'README.md: npx --no-install file-library-contract proxy --upstream "$STAGING_URL" -- npm test': {
    as: "shell",
    says: /proxy: [1-9]\d* exchanges, 0 kind\(s\) of finding/,
  },
  'docs/checking-a-server.md: FILE_LIBRARY_API_KEY="$KEY" npx --no-install file-library-contract --base-url https://files.example.com --file-id "$FILE_ID"':
    { as: "shell", says: /\b[1-9]\d* passed, 0 failed\b/ },
  // It prints the failed checks, and only when the run did not pass: it must print nothing.
  'docs/checking-a-server.md: import { runSuite } from "file-library-contract";': { as: "node", says: /^\s*$/ },
  "docs/checking-a-server.md: FILE_LIBRARY_BASE_URL=https://files.example.com \\": {
    as: "shell",
    in: "repo",
    says: /\b[1-9]\d* passed, 0 failed\b/,
  },
  "docs/checking-a-server.md: # CI: run the app's tests through the proxy (FILE_LIBRARY_BASE_URL points at it)": {
    as: "shell",
    says: /proxy: [1-9]\d* exchanges, 0 kind\(s\) of finding/,
  },
  "docs/checking-a-server.md: npx --no-install file-library-contract proxy --upstream https://staging.example.com --port 8080":
    { as: "server", ready: /proxy: listening on http:\/\/\S+/ },
  // The opt-in modes on a sound service: the app's test passes, each answer as it came but for the header.
  "docs/checking-a-server.md: # CI: the app's tests fail at the call that met a broken answer, and can read each exchange's findings":
    {
      as: "shell",
      says: /proxy: [1-9]\d* exchanges, 0 kind\(s\) of finding/,
    },
  // Recorded through the proxy, then replayed against the candidate (here the same sandbox): every exchange holds.
  "docs/checking-a-server.md: # Record: the app's tests, through the proxy": {
    as: "shell",
    says: /replay: passed: [1-9]\d* exchanges, \d+ duplicates, [1-9]\d* replayed, 0 break\(s\)/,
  },
  'docs/client.md: import { createFileLibraryClient, UnprocessableEntityError } from "file-library-kit";': {
    as: "node",
    says: /^422 /m,
  },
  "docs/for-other-teams.md: npx @redocly/cli lint openapi.yaml": { as: "shell", says: /Your API description is valid/ },
  "docs/for-other-teams.md: FILE_LIBRARY_API_KEY=dev-key npx --no-install file-library-sandbox --port 4010": {
    as: "server",
    ready: /listening at http:\/\/\S+/,
  },
  "docs/for-other-teams.md: npx @stoplight/prism-cli mock dist/openapi.yaml --port 4010": {
    as: "server",
    ready: /Prism is listening/,
  },
  "docs/sandbox.md: export FILE_LIBRARY_API_KEY=dev-key": { as: "server", ready: /listening at http:\/\/\S+/ },
  'docs/sandbox.md: curl -H "Authorization: Bearer $FILE_LIBRARY_API_KEY" http://127.0.0.1:4010/studio/v1/library/files/file_01HZX3K9Q4T7V2M8N6P5R1S0AB':
    {
      as: "shell",
      says: new RegExp(`"id":"${DEMO_FILE}"[\\s\\S]*http://127\\.0\\.0\\.1:\\d+/`),
    },
  // Another team's test of its checker: a sandbox with a fault, from the sandbox package's testing entry.
  'docs/sandbox.md: import { afterAll, beforeAll, expect, test } from "vitest";': { as: "vitest" },
  'docs/testing-your-app.md: import { afterAll, beforeAll, expect, test } from "vitest";': { as: "vitest" },
  'docs/testing-your-app.md: import { setupServer } from "msw/node";': { as: "node" },
  "contract-tests/README.md: FILE_LIBRARY_API_KEY=... npx --no-install file-library-contract --base-url https://files.example.com --file-id <id of an existing file>":
    { as: "shell", says: /\b[1-9]\d* passed, 0 failed\b/ },
  'contract-tests/README.md: import { runSuite } from "file-library-contract";': { as: "node", says: /^0 \{/m },
  "sandbox/README.md: FILE_LIBRARY_API_KEY=dev-key npx --no-install file-library-sandbox --port 4010 --data ./files.db":
    { as: "server", ready: /listening at http:\/\/\S+/ },
  'sandbox/README.md: import { startSandbox, variation } from "file-library-sandbox/testing";': { as: "node" },
};

/**
 * A sample's key in RUNNERS: its page and first line, without a comment at the line's end, nor a pinned version
 * (docs-links.test.ts checks that it is the package's).
 */
const keyOf = (block: DocBlock) =>
  `${block.page}: ${block.code
    .split("\n")[0]!
    .replace(/\s+(?:#|\/\/)\s.*$/, "")
    .replace(/@\d+\.\d+\.\d+.*$/, "@")}`;

/**
 * The sample as it runs here: the placeholders a reader fills in get the sandbox's URL (for the service, the staging
 * server and the candidate deployment), a free port (for a command that starts a server: none is fixed), the demo file's id and the key.
 */
function filledIn(code: string, serviceUrl: string, freePort: number): string {
  return code
    .replace(/https:\/\/(?:files|staging|candidate)\.example\.com|http:\/\/127\.0\.0\.1:4010/g, serviceUrl)
    .replace(/--port (?:4010|8080)\b/g, `--port ${freePort}`)
    .replace(/<id(?: of an existing file)?>/g, DEMO_FILE)
    .replace(/=\.\.\.(?=\s)/g, `=${KEY}`);
}

/** A port no one listens on now, for a sample that names its port (Prism cannot be told 0). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const blocks = SAMPLE_PAGES.flatMap((page) => fencedBlocks(page));
const run = blocks.filter((block) => !block.notRun);

let scratch: string;
let project: string;
let repoCopy: string | undefined;
let service: ServerProcess;
let env: NodeJS.ProcessEnv;

// The project the samples run in: the packages from their tarballs, the tools the docs name (msw, vitest, Redocly, Prism; the
// Specmatic sample runs in test/consumers/specmatic.test.ts) linked from the kit's own node_modules at the versions it pins, and the bundle where the docs put it.
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-doc-samples-"));
  const tarballs = await Promise.all((["client", "contract", "sandbox"] as const).map((name) => packed(name)));
  project = await installInto(path.join(scratch, "project"), tarballs, {
    type: "module",
    scripts: { test: "node app.mjs" },
  });
  // vitest as a project installs it for its own tests: the contract package no longer brings it.
  for (const tool of ["msw", "vitest", "@redocly/cli", "@stoplight/prism-cli"]) {
    const link = path.join(project, "node_modules", tool);
    await mkdir(path.dirname(link), { recursive: true });
    await symlink(fromRoot("node_modules", tool), link, "dir");
  }
  for (const bin of ["redocly", "prism", "vitest"])
    await symlink(fromRoot("node_modules", ".bin", bin), path.join(project, "node_modules", ".bin", bin));
  const bundle = path.join(project, "node_modules", "file-library-kit", "dist");
  await mkdir(path.join(project, "dist"));
  for (const file of ["openapi.yaml", "openapi.json"])
    await copyFile(path.join(bundle, file), path.join(project, "dist", file));
  await copyFile(path.join(bundle, "openapi.yaml"), path.join(project, "openapi.yaml"));
  // The app whose tests the proxy wraps (`-- npm test`): it reads the demo file through FILE_LIBRARY_BASE_URL.
  await writeFile(
    path.join(project, "app.mjs"),
    `import { createFileLibraryClient } from "file-library-kit";\nconsole.log("app read", (await createFileLibraryClient().files.get("${DEMO_FILE}")).name);\n`,
  );
  if (
    run.some(
      (block) => RUNNERS[keyOf(block)]?.as === "shell" && (RUNNERS[keyOf(block)] as { in?: string }).in === "repo",
    )
  ) {
    repoCopy = await copyOfRepo("file-library-doc-samples-repo-");
  }
  service = await startServer("npx", ["--no-install", "--loglevel=error", "file-library-sandbox", "--port", "0"], {
    cwd: project,
    env: { ...process.env, FILE_LIBRARY_API_KEY: KEY },
    ready: /listening at (http:\/\/\S+)/,
    timeoutMs: 60_000,
    what: "the packed sandbox",
    group: true,
  });
  // What a reader's shell has: the key, the service (also as the staging server), the file; no test runner's variables.
  env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(VITEST|GITHUB_|FILE_LIBRARY_)/.test(name) && name !== "NODE_ENV",
    ),
  );
  Object.assign(env, {
    FILE_LIBRARY_API_KEY: KEY,
    KEY,
    MY_KEY: KEY,
    FILE_ID: DEMO_FILE,
    STAGING_URL: service.url,
    REDOCLY_TELEMETRY: "off",
    REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  });
}, PACK_WAIT_MS + 180_000);
afterAll(async () => {
  await service?.stop();
  await rm(scratch, { recursive: true, force: true });
  if (repoCopy) await rm(repoCopy, { recursive: true, force: true });
});

/** Runs a command in its own process group to its end (or RUN_TIMEOUT_MS), then stops whatever it left running. */
async function runToEnd(
  command: string,
  args: string[],
  cwd: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number; output: string }> {
  const child = startChild(command, args, {
    cwd,
    env: { ...env, ...extraEnv },
    group: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => {
    output += `\n(stopped after ${RUN_TIMEOUT_MS / 1000} s)`;
    signalChild(child, "SIGKILL");
  }, RUN_TIMEOUT_MS);
  const code = await exitCodeOf(child);
  clearTimeout(timer);
  signalChild(child, "SIGTERM");
  return { code, output };
}

/** Runs a command that serves until Ctrl-C: it must say it is ready, then end on Ctrl-C as a shell reports it. */
async function serveThenInterrupt(
  script: string,
  ready: RegExp,
  cwd: string,
): Promise<{ code: number; output: string }> {
  const child = startChild("bash", ["-c", script], { cwd, env, group: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitForOutput(child, ready, 60_000);
  } catch (error) {
    signalChild(child, "SIGKILL");
    throw error;
  }
  signalChild(child, "SIGINT");
  const timer = setTimeout(() => signalChild(child, "SIGKILL"), 10_000);
  const code = await exitCodeOf(child);
  clearTimeout(timer);
  return { code, output };
}

describe("every fenced sample of the README, docs/ and the packages' READMEs", () => {
  it("finds the samples, and each has a runner here or a marker that says why it is not run", () => {
    expect(blocks.length).toBeGreaterThan(15);
    expect(
      blocks
        .filter((block) => !block.notRun && !RUNNERS[keyOf(block)])
        .map((block) => `${block.page}:${block.line}: ${keyOf(block)}`),
    ).toEqual([]);
    // No runner is left for a sample that changed or went.
    const keys = new Set(run.map(keyOf));
    expect(Object.keys(RUNNERS).filter((key) => !keys.has(key))).toEqual([]);
  });

  it.each(run.map((block) => [`${block.page}:${block.line}`, block] as const))(
    "%s runs",
    { timeout: RUN_TIMEOUT_MS + 30_000 },
    async (where, block) => {
      const runner = RUNNERS[keyOf(block)];
      expect(runner, `${where}: no runner`).toBeDefined();
      const code = filledIn(block.code, service.url, await freePort());
      const name = where.replace(/\W+/g, "-");
      let result: { code: number; output: string };
      switch (runner!.as) {
        case "node":
          await writeFile(path.join(project, `${name}.mts`), code);
          result = await runToEnd(
            process.execPath,
            [`${name}.mts`],
            project,
            runner!.baseUrlInEnv ? { FILE_LIBRARY_BASE_URL: service.url } : {},
          );
          break;
        case "vitest":
          await writeFile(path.join(project, `${name}.test.ts`), code);
          result = await runToEnd(
            "npx",
            ["--no-install", "--loglevel=error", "vitest", "run", `${name}.test.ts`],
            project,
          );
          break;
        case "shell":
          result = await runToEnd(
            "bash",
            ["-e", "-o", "pipefail", "-c", code],
            runner!.in === "repo" ? repoCopy! : project,
          );
          break;
        case "server":
          result = await serveThenInterrupt(code, runner!.ready, project);
          expect([0, 130], result.output).toContain(result.code);
          break;
      }
      expect(result.output).not.toMatch(STACK_LINE);
      if (runner!.as !== "server") expect(result.code, result.output).toBe(0);
      if ("says" in runner! && runner.says) expect(result.output).toMatch(runner.says);
    },
  );
});

describe("the markers and the placeholders", () => {
  it("leaves a block out only with a reason; a block without a runner is found", () => {
    const page =
      "<!-- sample: not run, because it is a diagram -->\n```text\na --> b\n```\n\n<!-- sample: not run -->\n```sh\necho hi\n```\n";
    const [diagram, unmarked] = fencedBlocks("page.md", page);
    expect(diagram).toMatchObject({ lang: "text", line: 2, code: "a --> b\n", notRun: "it is a diagram" });
    expect(unmarked).toMatchObject({ lang: "sh", notRun: undefined });
    expect(RUNNERS[keyOf(unmarked!)]).toBeUndefined();
  });

  it("get the sandbox, a free port, the demo file and the key; the MSW sample's own host stays", () => {
    const sample =
      "KEY=... x --base-url https://files.example.com --file-id <id of an existing file> --port 4010 https://files.example.test";
    expect(filledIn(sample, "http://127.0.0.1:5555", 6000)).toBe(
      `KEY=${KEY} x --base-url http://127.0.0.1:5555 --file-id ${DEMO_FILE} --port 6000 https://files.example.test`,
    );
  });
});
