// The worker's side of the pack service (test/support/pack-service.ts): the tarballs, packed once per test run.
import { mkdtemp } from "node:fs/promises";
import { get } from "node:http";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { packOnce, type PackageName } from "./pack-service.ts";

// Under a config without the global setup (one of the mutation runs), a worker packs for itself, once.
let ownPacks: ((name: PackageName) => Promise<string>) | undefined;

/**
 * The tarball of package `name`, packed once for the whole test run. Shared by every test that asks: install it, never
 * move or delete it.
 */
export async function packed(name: PackageName): Promise<string> {
  const service = inject("packService");
  if (!service) {
    ownPacks ??= packOnce(await mkdtemp(path.join(os.tmpdir(), "file-library-packed-")));
    return ownPacks(name);
  }
  const { status, body } = await answerOf(`${service}/${name}`);
  if (status !== 200) throw new Error(`packing ${name} failed: ${body}`);
  return body;
}

/**
 * Resolves once the pack service has fetched Node `version` into the Node lines' cache, which it starts with the first
 * pack (scripts/lib/registry-node.ts then finds it there); at once under a config without the service.
 */
export async function nodeLineFetched(version: string): Promise<void> {
  const service = inject("packService");
  if (!service) return;
  const { status, body } = await answerOf(`${service}/node/${version}`);
  if (status !== 200) throw new Error(`fetching Node ${version} failed: ${body}`);
}

/** The status and body of a GET to the pack service. */
function answerOf(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, body }));
    }).on("error", reject);
  });
}

/**
 * How long a test file's set-up may wait for its tarballs: the three packs run one after another, and the one it
 * needs may come last (a pack builds its package first: about a minute each on 2 busy cores).
 */
export const PACK_WAIT_MS = 600_000;
