import type { TestProject } from "vitest/node";
import { exampleFileId } from "./example-file-id.ts";
import type { HandshakeMessage } from "./handshake.ts";
import { liveTargetFromEnv, MOCK_API_KEY, type Target } from "./target.ts";

declare module "vitest" {
  export interface ProvidedContext {
    target: Target;
    /** The seed of every generated input of this run. */
    seed: number;
  }
}

/** Says it is listening, waits for the runner's word, then lets go of the channel (the run must not wait on it to end). */
function readyFromRunner(): Promise<Record<string, string>> {
  return new Promise((resolve) => {
    process.on("message", function onMessage(message: HandshakeMessage) {
      if (!("ready" in message)) return;
      process.off("message", onMessage);
      // Not from within the message's own dispatch: Node 20 fails on a channel closed there.
      setImmediate(() => process.disconnect?.());
      resolve(message.env);
    });
    process.send?.({ listening: true } satisfies HandshakeMessage);
  });
}

/**
 * Hands the target to the checks: the live server FILE_LIBRARY_BASE_URL names, or the mock the runner started. A
 * runner that started the suite before its target was ready (FILE_LIBRARY_AWAIT_READY) says when it is, and how to
 * reach it: vitest's own start-up then overlaps the mock's and the spec's.
 */
export async function setup(project: TestProject): Promise<void> {
  if (process.env.FILE_LIBRARY_AWAIT_READY) Object.assign(process.env, await readyFromRunner());
  // Read now, not on import: a runner that started the suite early writes the bundled spec meanwhile.
  const { spec } = await import("./spec.ts");
  const seed = Number.isInteger(Number(process.env.FILE_LIBRARY_SEED)) && process.env.FILE_LIBRARY_SEED
    ? Number(process.env.FILE_LIBRARY_SEED)
    : Math.floor(Math.random() * 2 ** 31);
  project.provide("seed", seed);
  console.log(`contract: seed ${seed} (replay with --seed ${seed})`);
  const live = liveTargetFromEnv();
  if (live) {
    project.provide("target", live);
    return;
  }
  const mockUrl = process.env.FILE_LIBRARY_MOCK_URL;
  if (!mockUrl) {
    throw new Error("No server to check: set FILE_LIBRARY_BASE_URL (or --base-url) for a live server; in the kit's repo `npm run contract` starts the Prism mock.");
  }
  project.provide("target", {
    mode: "mock",
    baseUrl: mockUrl,
    apiKey: MOCK_API_KEY,
    // Prism answers every id alike; the spec's own example id keeps the requests realistic.
    fileId: exampleFileId(spec.document),
    writeChecks: true,
  });
}
