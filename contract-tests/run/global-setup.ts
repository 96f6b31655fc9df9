import type { TestProject } from "vitest/node";
import { exampleFileId } from "./example-file-id.ts";
import type { HandshakeMessage } from "./handshake.ts";
import type { RunSettings } from "./run-context.ts";
import { processSettings } from "./settings.ts";
import { readSuiteDocument } from "./suite-document.ts";
import { MOCK_API_KEY, type Target } from "../http/target.ts";
import { liveTarget } from "./target.ts";
import { offerTarget } from "./target-channel.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's settings (the seed drawn) and its target: each worker makes its run context from them. */
    run: RunSettings;
  }
}

/** The runner's word: when the bundled spec is written, and when the target is ready (with the mock's URL). */
interface RunnerWord {
  specReady: Promise<void>;
  ready: Promise<{ mockUrl?: string | undefined }>;
}

/** Says it is listening and takes the runner's word; lets go of the channel after `ready` (the run must not wait on it to end). */
function listenToRunner(): RunnerWord {
  let specReady!: () => void;
  let ready!: (word: { mockUrl?: string | undefined }) => void;
  const word: RunnerWord = { specReady: new Promise((resolve) => (specReady = resolve)), ready: new Promise((resolve) => (ready = resolve)) };
  process.on("message", function onMessage(message: HandshakeMessage) {
    if ("specReady" in message) specReady();
    if (!("ready" in message)) return;
    process.off("message", onMessage);
    // Not from within the message's own dispatch: Node 20 fails on a channel closed there.
    setImmediate(() => process.disconnect?.());
    specReady();
    ready({ mockUrl: message.mockUrl });
  });
  process.send?.({ listening: true } satisfies HandshakeMessage);
  return word;
}

/**
 * Hands the run's settings and target to the checks: the live server the settings name, or the mock the runner
 * started. A runner that started the suite before its target was ready (FILE_LIBRARY_AWAIT_READY) says when the
 * bundled spec is written and when the mock listens: the workers start once the spec is, and get the mock's URL
 * through the target channel before their first request, so that their start-up overlaps the mock's.
 */
export async function setup(project: TestProject): Promise<(() => void) | undefined> {
  // User Timing marks name the phases of a run (profilers show them; the kit's bench reads them).
  performance.mark("suite:setup");
  const settings = processSettings();
  const runner = settings.awaitReady ? listenToRunner() : undefined;
  await runner?.specReady;
  performance.mark("suite:spec-ready");
  // Read now, not on import: a runner that started the suite early writes the bundled spec meanwhile. Only read: the
  // workers validate, and Ajv's load here would hold back their start (docs/decisions.md, What vitest's own process loads).
  const document = readSuiteDocument(settings.specFile);
  console.log(`contract: seed ${settings.seed} (replay with --seed ${settings.seed}${settings.shuffle ? ", checks in an order drawn from it" : ""})`);
  const live = liveTarget(settings);
  if (!live && !settings.mockUrl && !runner) {
    throw new Error("No server to check: set FILE_LIBRARY_BASE_URL (or --base-url) for a live server; in the kit's repo `npm run contract` starts the Prism mock.");
  }
  const mockTarget = (baseUrl: string): Target => ({
    mode: "mock",
    baseUrl,
    apiKey: MOCK_API_KEY,
    // Prism answers every id alike; the spec's own example id keeps the requests realistic.
    fileId: exampleFileId(document),
    writeChecks: true,
  });
  if (live || settings.mockUrl) {
    project.provide("run", { settings, target: live ?? mockTarget(settings.mockUrl!) });
    return undefined;
  }
  // The mock is still starting: the workers ask for its URL before their first request; the reporter gets it provided once known.
  const offer = offerTarget();
  void runner!.ready.then(({ mockUrl }) => {
    if (mockUrl === undefined) return offer.settle({ failed: "No server to check: the runner started no mock and named no live server." });
    offer.settle({ mockUrl });
    project.provide("run", { settings, target: mockTarget(mockUrl) });
  });
  project.provide("run", { settings, target: mockTarget(""), awaitsMock: true });
  return () => offer.close();
}
