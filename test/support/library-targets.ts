import { writeFile, mkdtemp } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Fixture } from "../../sandbox/core/fixtures.ts";
import { createFakeFileLibrary } from "../../sandbox/fake.ts";
import { nodeRequestListener } from "../../sandbox/node-adapter.ts";
import { FILES, sandbox, SANDBOX_KEY, storedMetadata } from "./sandbox.ts";

/** A File Library that tests call as a real client would, and whose stored files they read back. */
export interface LibraryTarget {
  /** Where it answers: the origin, without `/studio/v1`. */
  baseUrl: string;
  apiKey: string;
  /** The fetch that reaches it: the global one, or the fake's own. */
  fetch: typeof fetch;
  /** The file's metadata as stored now, read past any client. */
  stored(id: string): Promise<unknown>;
  close(): Promise<void>;
}

/** The kinds of target: the sandbox on each storage, the fake in-process or behind node:http. */
export type TargetKind = "sandbox (memory)" | "sandbox (SQLite)" | "fake (fetch)" | "fake (node:http)";

/** Starts a target holding `files`, with the sandbox's test key. */
export async function startTarget(kind: TargetKind, files: Fixture[]): Promise<LibraryTarget> {
  if (kind === "sandbox (memory)" || kind === "sandbox (SQLite)") {
    const dir = await mkdtemp(path.join(os.tmpdir(), "file-library-targets-"));
    const fixturesFile = path.join(dir, "files.json");
    await writeFile(fixturesFile, JSON.stringify(files));
    const dataFile = kind === "sandbox (SQLite)" ? path.join(dir, "files.db") : undefined;
    const sb = await sandbox({ fixturesFile, dataFile });
    return {
      baseUrl: sb.baseUrl,
      apiKey: SANDBOX_KEY,
      fetch,
      stored: (id) => storedMetadata(sb.baseUrl, id),
      close: () => sb.close(),
    };
  }
  const fake = createFakeFileLibrary({ apiKey: SANDBOX_KEY, files });
  // The copy file() hands out, as the JSON a read would give: no `undefined` member.
  const stored = async (id: string) => JSON.parse(JSON.stringify(fake.file(id) ?? null)) as unknown;
  if (kind === "fake (fetch)")
    return {
      baseUrl: fake.baseUrl,
      apiKey: SANDBOX_KEY,
      fetch: fake.fetch as typeof fetch,
      stored,
      close: async () => {},
    };
  // A client that brings its own HTTP stack (the official TypeScript SDK uses node-fetch in Node) reaches the fake
  // through the sandbox's node:http adapter.
  const server = createServer(nodeRequestListener(fake.service, { maxBodyBytes: 1024 * 1024, log: () => {} }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    apiKey: SANDBOX_KEY,
    fetch,
    stored,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Sends a raw update to a target: the body exactly as given, with these headers and the key. */
export async function sendUpdate(
  target: LibraryTarget,
  id: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const answer = await target.fetch(`${target.baseUrl}${FILES}/${encodeURIComponent(id)}`, {
    method: "PUT",
    headers: { ...headers, authorization: `Bearer ${target.apiKey}` },
    body,
  });
  return { status: answer.status, text: await answer.text() };
}
