import { existsSync } from "node:fs";
import { get } from "node:http";
import { startSandbox, type RunningSandbox, type SandboxConfig } from "../../sandbox/start.ts";
import { variation, type VariationNames } from "../../sandbox/testing/index.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";

export const SANDBOX_KEY = "sandbox-test-key-5f2b9c";

/**
 * Throws unless the bundled spec exists: every vitest config's global setup bundles it (test/support/bundled-spec.ts),
 * in the main process, so that no test file starts a process of its own for it (test/repo/test-tiers.test.ts).
 */
export function ensureBundle(): void {
  if (!existsSync(bundledSpec.json))
    throw new Error(
      `${bundledSpec.json} is missing: run the tests through a config whose global setup bundles the spec`,
    );
}

/** How the tests start a sandbox: its config, and the fault and variant it plays, by name (the testing entry's). */
export type TestSandboxConfig = Partial<SandboxConfig> & VariationNames;

/** A sandbox in this process on a free port, with a captured log; with the fault and the variant named, if any. */
export async function sandbox({
  fault,
  variant,
  ...config
}: TestSandboxConfig = {}): Promise<RunningSandbox & { logs: string[] }> {
  ensureBundle();
  const logs: string[] = [];
  const running = await startSandbox({
    apiKey: SANDBOX_KEY,
    log: (line) => logs.push(line),
    ...variation({ fault, variant }),
    ...config,
  });
  return Object.assign(running, { logs });
}

/** Fetch against the sandbox with the key (unless `auth` is false). */
export function call(base: string, path: string, init: RequestInit & { auth?: boolean } = {}): Promise<Response> {
  const { auth = true, headers, ...rest } = init;
  return fetch(`${base}${path}`, {
    ...rest,
    headers: { ...(auth ? { authorization: `Bearer ${SANDBOX_KEY}` } : {}), ...(headers as Record<string, string>) },
  });
}

export const FILES = "/studio/v1/library/files";

/**
 * A file's metadata as the sandbox has it, whatever variant it plays: read on a connection of its own (closed
 * after the answer), a 429 waited out as its Retry-After says.
 */
export async function storedMetadata(base: string, fileId: string, apiKey = SANDBOX_KEY): Promise<unknown> {
  for (;;) {
    const answer = await new Promise<{ status: number; retryAfter: string | undefined; body: string }>(
      (resolve, reject) => {
        const url = `${base}${FILES}/${encodeURIComponent(fileId)}`;
        const req = get(url, { agent: false, headers: { authorization: `Bearer ${apiKey}` } }, (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode!, retryAfter: res.headers["retry-after"], body }));
        });
        req.on("error", reject);
      },
    );
    // Past a BOM a fault may put before it: what the sandbox stored is the point here.
    if (answer.status !== 429) return JSON.parse(answer.body.replace(/^\uFEFF/, ""));
    await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter ?? 1) * 1000));
  }
}
