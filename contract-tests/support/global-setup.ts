import type { TestProject } from "vitest/node";
import { exampleFileId } from "./example-file-id.ts";
import type { HandshakeMessage } from "./handshake.ts";
import type { RunSettings } from "./run-context.ts";
import { processSettings } from "./settings.ts";
import { loadSuiteSpec } from "./spec.ts";
import { liveTarget, MOCK_API_KEY, type Target } from "./target.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's settings (the seed drawn) and its target: each worker makes its run context from them. */
    run: RunSettings;
  }
}

/** Says it is listening, waits for the runner's word, then lets go of the channel (the run must not wait on it to end). */
function readyFromRunner(): Promise<{ mockUrl?: string | undefined }> {
  return new Promise((resolve) => {
    process.on("message", function onMessage(message: HandshakeMessage) {
      if (!("ready" in message)) return;
      process.off("message", onMessage);
      // Not from within the message's own dispatch: Node 20 fails on a channel closed there.
      setImmediate(() => process.disconnect?.());
      resolve({ mockUrl: message.mockUrl });
    });
    process.send?.({ listening: true } satisfies HandshakeMessage);
  });
}

/**
 * Hands the run's settings and target to the checks: the live server the settings name, or the mock the runner
 * started. A runner that started the suite before its target was ready (FILE_LIBRARY_AWAIT_READY) says when it is,
 * and how to reach it: vitest's own start-up then overlaps the mock's and the spec's.
 */
export async function setup(project: TestProject): Promise<void> {
  let settings = processSettings();
  if (settings.awaitReady) settings = { ...settings, ...(await readyFromRunner()) };
  // Read now, not on import: a runner that started the suite early writes the bundled spec meanwhile.
  const spec = loadSuiteSpec(settings.specFile);
  console.log(`contract: seed ${settings.seed} (replay with --seed ${settings.seed}${settings.shuffle ? ", checks in an order drawn from it" : ""})`);
  const target: Target | undefined = liveTarget(settings) ?? (settings.mockUrl
    ? {
        mode: "mock",
        baseUrl: settings.mockUrl,
        apiKey: MOCK_API_KEY,
        // Prism answers every id alike; the spec's own example id keeps the requests realistic.
        fileId: exampleFileId(spec.document),
        writeChecks: true,
      }
    : undefined);
  if (!target) {
    throw new Error("No server to check: set FILE_LIBRARY_BASE_URL (or --base-url) for a live server; in the kit's repo `npm run contract` starts the Prism mock.");
  }
  project.provide("run", { settings, target });
}
