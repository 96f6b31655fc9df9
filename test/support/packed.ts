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
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    get(`${service}/${name}`, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, body }));
    }).on("error", reject);
  });
  if (status !== 200) throw new Error(`packing ${name} failed: ${body}`);
  return body;
}

/**
 * How long a test file's set-up may wait for its tarballs: the three packs run one after another, and the one it
 * needs may come last (a pack builds its package first: about a minute each on 2 busy cores).
 */
export const PACK_WAIT_MS = 600_000;
