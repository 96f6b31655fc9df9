// covers: contract-tests/recording/replay.ts, contract-tests/recording/read-recording.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { FORMAT, type RecordedExchange } from "../../../contract-tests/recording/format.ts";
import { runCommand } from "../../../lib/process.ts";
import { fromRoot } from "../../../scripts/lib/paths.ts";
import { SANDBOX_FIXTURES } from "../../support/contract-suite.ts";
import { sandbox, SANDBOX_KEY } from "../../support/sandbox.ts";

const EXCHANGES = 100_000;
const DISTINCT = 40;
// The replay's heap, capped below the recording's size: a replay that read the file whole, or kept its lines, dies
// (reading it whole, split and parsed, ran out of heap at this cap when measured).
const HEAP_MB = 96;

let scratch: string;
let recording: string;

/** A read of doc-1 as the app got it; `variant` makes its query, and so the request, distinct. */
function line(seq: number, variant: number): RecordedExchange {
  return {
    format: FORMAT,
    seq,
    at: "2026-11-26T10:00:00.000Z",
    method: "GET",
    target: `/studio/v1/library/files/doc-1?view=${variant}`,
    operation: "getFile",
    request: { auth: "key", headers: { accept: "application/json" }, body: null },
    response: {
      status: 200,
      // Padding, as real answers' headers are: the recording is far larger than the replay's heap.
      headers: { "content-type": "application/json", "x-padding": "p".repeat(1500) },
      body: {
        text: JSON.stringify({
          id: "doc-1",
          name: "report.txt",
          size: 5,
          created_at: "2026-01-02T03:04:05.000Z",
          labels: ["a", "b"],
          publicUrl: "https://cdn.example.test/report.txt",
        }),
      },
    },
    durationMs: 1,
    findings: [],
  };
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-replay-bounded-"));
  recording = path.join(scratch, "long.jsonl");
  const out = createWriteStream(recording);
  for (let seq = 1; seq <= EXCHANGES; seq++) {
    // The first DISTINCT exchanges are each new; every later one repeats one of them.
    if (!out.write(`${JSON.stringify(line(seq, (seq - 1) % DISTINCT))}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "close");
}, 60_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("replay of a long recording", () => {
  it("streams 100,000 exchanges in a heap smaller than the file, sends each distinct request once, and counts the duplicates", {
    timeout: 60_000,
  }, async () => {
    expect((await stat(recording)).size).toBeGreaterThan(HEAP_MB * 1024 * 1024 * 1.5);
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
    try {
      const reportDir = path.join(scratch, "reports");
      const run = await runCommand(
        process.execPath,
        [
          `--max-old-space-size=${HEAP_MB}`,
          "--import",
          "tsx",
          fromRoot("contract-tests/cli.ts"),
          "replay",
          recording,
          "--base-url",
          sb.baseUrl,
          "--max-requests",
          String(DISTINCT),
          "--report-dir",
          reportDir,
        ],
        { env: { ...process.env, FILE_LIBRARY_API_KEY: SANDBOX_KEY } },
      );
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain(
        `passed: ${EXCHANGES} exchanges, ${EXCHANGES - DISTINCT} duplicates, ${DISTINCT} replayed, 0 break(s)`,
      );
      // Each distinct request reached the server once: the budget held them all, and no duplicate was sent.
      expect(sb.logs.filter((l) => l.startsWith("GET /studio/v1/library/files/doc-1 200")).length).toBe(DISTINCT);
    } finally {
      await sb.close();
    }
  });
});
