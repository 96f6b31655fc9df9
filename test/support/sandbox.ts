import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { get } from "node:http";
import { startSandbox, type RunningSandbox, type SandboxConfig } from "../../sandbox/start.ts";
import { variation, type VariationNames } from "../../sandbox/testing/index.ts";
import { bin, bundledSpec, fromRoot } from "../../scripts/lib/paths.ts";

export const SANDBOX_KEY = "sandbox-test-key-5f2b9c";

/** Bundles the spec once if no bundle exists yet (npm test builds it first anyway). */
export function ensureBundle(): void {
  if (!existsSync(bundledSpec.json)) execFileSync(bin("tsx"), [fromRoot("scripts/build-spec.ts")]);
}

/** How the tests start a sandbox: its config, and the fault and variant it plays, by name (the testing entry's). */
export type TestSandboxConfig = Partial<SandboxConfig> & VariationNames;

/** A sandbox in this process on a free port, with a captured log; with the fault and the variant named, if any. */
export async function sandbox({ fault, variant, ...config }: TestSandboxConfig = {}): Promise<RunningSandbox & { logs: string[] }> {
  ensureBundle();
  const logs: string[] = [];
  const running = await startSandbox({ apiKey: SANDBOX_KEY, log: (line) => logs.push(line), ...variation({ fault, variant }), ...config });
  return Object.assign(running, { logs });
}

/** Fetch against the sandbox with the key (unless `auth` is false). */
export function call(
  base: string,
  path: string,
  init: RequestInit & { auth?: boolean } = {},
): Promise<Response> {
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
    const answer = await new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
      const url = `${base}${FILES}/${encodeURIComponent(fileId)}`;
      const req = get(url, { agent: false, headers: { authorization: `Bearer ${apiKey}` } }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, retryAfter: res.headers["retry-after"], body }));
      });
      req.on("error", reject);
    });
    // Past a BOM a fault may put before it: what the sandbox stored is the point here.
    if (answer.status !== 429) return JSON.parse(answer.body.replace(/^\uFEFF/, ""));
    await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter ?? 1) * 1000));
  }
}
