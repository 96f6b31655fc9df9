// covers: src/response-limit.ts, src/client.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { hostileServer, type HostileServer } from "../support/hostile-server.ts";
import { run } from "../support/packages.ts";

// A call's peak memory may grow this much over the process's, whatever the server sends.
const BOUND_MB = 64;

let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer();
});
afterAll(() => server.close());

/** One call in a child process: what it threw, and how far its peak memory grew. */
async function callIn(kind: string, operation: string): Promise<{ name: string; message: string; grewMB: number }> {
  const output = await run(process.execPath, [
    "--import",
    "tsx",
    fromRoot("test/fixtures/hostile-call.ts"),
    `${server.origin}/${kind}`,
    operation,
  ]);
  return JSON.parse(output.trim().split("\n").at(-1)!);
}

describe(`a call's memory stays within ${BOUND_MB} MB of the process's, whatever the server sends`, {
  timeout: 120_000,
}, () => {
  it.each([
    [
      "an endless metadata body (gigabytes)",
      "huge-body",
      "get",
      "MalformedResponseError",
      /over 1048576 bytes \(maxResponseBytes\)/,
    ],
    ["a gzip bomb (it inflates without end)", "gzip-bomb", "get", "MalformedResponseError", /over 1048576 bytes/],
    [
      "an endless 422 body, on the update",
      "huge-422",
      "update",
      "UnprocessableEntityError",
      /was cut at 1048576 bytes \(maxResponseBytes\)/,
    ],
    ["an endless download URL", "huge-url", "downloadUrl", "MalformedResponseError", /over 1048576 bytes/],
  ])("%s", async (_, kind, operation, name, message) => {
    const result = await callIn(kind, operation);
    expect(result.name, result.message).toBe(name);
    expect(result.message).toMatch(message);
    expect(result.grewMB).toBeLessThan(BOUND_MB);
  });
});
