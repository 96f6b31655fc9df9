import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import type { Browser } from "puppeteer-core";
import { runCommand } from "../../lib/process.ts";
import { bin, fromRoot } from "../../scripts/lib/paths.ts";
import type { ScenarioConfig, ScenarioResults } from "../runtimes/scenarios.ts";
import { BROWSERS, findBrowser, withBrowser, type BrowserKind } from "./browser.ts";
import { missing } from "./missing.ts";
import { serveFolder } from "./static-server.ts";

/** One runtime of the matrix: how to tell whether it is here, its version, and how to run the scenarios in it. */
export interface Runtime {
  name: string;
  /** Whether it is web page (CORS applies: the scenarios also try a sandbox with CORS off). */
  browser: boolean;
  /** Why it cannot run here, or undefined when it can. */
  unavailable(): Promise<string | undefined>;
  version(): Promise<string>;
  /** Runs test/runtimes/scenarios.ts in it, from an app folder prepared by `prepareApp`. */
  run(app: string, config: ScenarioConfig): Promise<ScenarioResults>;
}

/**
 * Copies the scenario files into the app folder (where the package is installed from its tarball) and builds
 * them as each kind of runtime takes them: a module importing the installed package (Node, Bun, Deno), and
 * bundles of it made by esbuild as apps make them (workerd, with its conditions; browsers).
 */
export async function prepareApp(app: string): Promise<void> {
  await cp(fromRoot("test/runtimes"), path.join(app, "runtimes"), { recursive: true });
  const common = { bundle: true, format: "esm", target: "es2022", logLevel: "silent" } as const;
  await mkdir(path.join(app, "page"), { recursive: true });
  await Promise.all([
    build({
      ...common,
      entryPoints: [path.join(app, "runtimes/main-cli.ts")],
      outfile: path.join(app, "scenarios-cli.mjs"),
      platform: "neutral",
      external: ["file-library-kit"],
    }),
    // msw stays out of the bundles, as in an app that does not have it: the fake then works without it.
    build({
      ...common,
      entryPoints: [path.join(app, "runtimes/main-worker.ts")],
      outfile: path.join(app, "worker/worker.js"),
      platform: "browser",
      conditions: ["workerd", "worker"],
      external: ["msw"],
    }),
    build({
      ...common,
      entryPoints: [path.join(app, "runtimes/main-page.ts")],
      outfile: path.join(app, "page/app.js"),
      platform: "browser",
      external: ["msw"],
    }),
    writeFile(
      path.join(app, "page/index.html"),
      `<!doctype html><title>app</title><script type="module" src="/app.js"></script>\n`,
    ),
  ]);
}

/** The results line a command-line or worker run prints; fails with its whole output when there is none. */
function resultsOf(output: string, code: number, what: string): ScenarioResults {
  const line = output.split("\n").find((l) => l.startsWith("RESULTS "));
  if (code !== 0 || !line) throw new Error(`${what} exited with ${code} without results; its output:\n${output}`);
  return JSON.parse(line.slice("RESULTS ".length)) as ScenarioResults;
}

/** Whether an npm-installed runtime's binary runs (its postinstall may not have fetched it). */
async function npmBinary(name: string): Promise<string | undefined> {
  const result = await runCommand(bin(name), ["--version"]).catch((error: Error) => ({
    code: 1,
    output: error.message,
  }));
  return result.code === 0
    ? undefined
    : `node_modules/.bin/${name} does not run (${result.output.trim().split("\n")[0]}): run npm ci`;
}

/** A runtime that runs the scenarios as a command (test/runtimes/main-cli.ts). */
function commandLine(
  name: string,
  command: () => string,
  args: string[],
  env: (app: string) => NodeJS.ProcessEnv = () => ({}),
): Runtime {
  return {
    name,
    browser: false,
    unavailable: () => (name === "node" ? Promise.resolve(undefined) : npmBinary(name)),
    version: async () => (await runCommand(command(), ["--version"])).output.trim().split("\n")[0]!,
    async run(app, config) {
      const { code, output } = await runCommand(command(), [...args, "scenarios-cli.mjs", JSON.stringify(config)], {
        cwd: app,
        env: { ...process.env, ...env(app) },
      });
      return resultsOf(output, code, name);
    },
  };
}

/** Cloudflare's workerd, running the worker bundle's `test` handler; loopback is the only address it may reach. */
const workerd: Runtime = {
  name: "workerd",
  browser: false,
  unavailable: () => npmBinary("workerd"),
  version: async () => (await runCommand(bin("workerd"), ["--version"])).output.trim(),
  async run(app, config) {
    // workerd's default outbound refuses private addresses: the network service allows loopback ("local") only.
    const capnp = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "scenarios", worker = .worker), (name = "loopback", network = (allow = ["local"]))],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-01-01",
  bindings = [(name = "CONFIG", json = ${JSON.stringify(JSON.stringify(config))})],
  globalOutbound = "loopback",
);
`;
    await writeFile(path.join(app, "worker/config.capnp"), capnp);
    const { code, output } = await runCommand(bin("workerd"), ["test", "config.capnp"], {
      cwd: path.join(app, "worker"),
    });
    return resultsOf(output, code, "workerd");
  },
};

/** A browser driven by puppeteer-core (Chromium over CDP, Firefox over WebDriver BiDi), the page served from its own origin. */
function browser(kind: BrowserKind): Runtime {
  const withIt = <T>(use: (b: Browser) => Promise<T>) => withBrowser(kind, findBrowser(kind)!, use);
  return {
    name: kind,
    browser: true,
    unavailable: async () =>
      findBrowser(kind)
        ? undefined
        : `no ${kind} (${BROWSERS[kind].variable}, or ${BROWSERS[kind].names.join(", ")} on PATH)`,
    version: () => withIt((b) => b.version()),
    async run(app, config) {
      const server: Server = await serveFolder(path.join(app, "page"));
      try {
        return await withIt(async (b) => {
          const page = await b.newPage();
          await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`);
          await page.waitForFunction(() => "runScenarios" in globalThis);
          type Run = (c: ScenarioConfig) => Promise<ScenarioResults>;
          return page.evaluate((c) => (globalThis as unknown as { runScenarios: Run }).runScenarios(c), config);
        });
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** The runtimes of the matrix, in the order of docs/client.md. */
export const RUNTIMES: readonly Runtime[] = [
  commandLine("node", () => process.execPath, []),
  commandLine("bun", () => bin("bun"), []),
  // --allow-net only: the client must not need env or file access. Deno's cache stays in the app folder.
  commandLine(
    "deno",
    () => bin("deno"),
    ["run", "--allow-net", "--no-lock"],
    (app) => ({ DENO_DIR: path.join(app, ".deno"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" }),
  ),
  workerd,
  browser("chromium"),
  browser("firefox"),
];

/** Whether `runtime` can run here; when it cannot, fails under CI=true and otherwise says what to install. */
export async function usable(runtime: Runtime, file: string): Promise<boolean> {
  const why = await runtime.unavailable();
  if (!why) return true;
  const install = runtime.browser ? `apt-get install -y ${BROWSERS[runtime.name as BrowserKind].debian}` : "npm ci";
  return missing(file, `${runtime.name} cannot start: ${why}`, install) ?? false;
}
