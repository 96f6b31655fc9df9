import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import type { PassedExchange } from "../../../contract-tests/proxy/forward.ts";
import type { JudgeEvents } from "../../../contract-tests/proxy/judge-traffic.ts";
import type { RecordedExchange } from "../../../contract-tests/recording/format.ts";
import { MAX_BUFFERED_BYTES, Recorder } from "../../../contract-tests/recording/recorder.ts";

let scratch: string;
beforeAll(async () => (scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-recorder-"))));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const body = (bytes: Uint8Array | string, cut = false) => {
  const b = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
  return { bytes: b, total: cut ? b.length * 10 : b.length, cut };
};

/** An exchange as the proxy passes it on; `over` replaces any part. */
const passed = (over: Partial<PassedExchange> = {}): PassedExchange => ({
  token: undefined,
  method: "GET",
  target: "/studio/v1/library/files/doc-1",
  requestHeaders: {
    authorization: "Bearer k-123456789",
    accept: "application/json",
    "user-agent": "app/1",
    cookie: "s=1",
  },
  requestBody: body(""),
  status: 200,
  responseHeaders: { "content-type": "application/json" },
  responseBody: body('{"id":"doc-1"}'),
  startedAt: 1,
  endedAt: 3.25,
  ...over,
});

const noEvents = (): JudgeEvents => ({
  finding: vi.fn(),
  warning: vi.fn(),
  seen: vi.fn(),
  notChecked: vi.fn(),
  preflight: vi.fn(),
});
const redact = (text: string) => text.replaceAll("k-123456789", "[REDACTED]");

/** Records the exchanges with a recorder of its own file; the lines, and what close() said. */
async function recordAll(
  exchanges: PassedExchange[],
  options: { apiKey?: string; maxBufferedBytes?: number; file?: string } = {},
  judge: (r: Recorder, events: JudgeEvents) => void = () => {},
) {
  const file = options.file ?? path.join(await mkdtemp(path.join(scratch, "r-")), "out.jsonl");
  const recorder = await Recorder.open(file, {
    apiKey: options.apiKey,
    maxBytes: 1000,
    ...(options.maxBufferedBytes ? { maxBufferedBytes: options.maxBufferedBytes } : {}),
  });
  const events = recorder.listen(noEvents());
  for (const exchange of exchanges) recorder.record(exchange, () => judge(recorder, events), redact);
  const said = await recorder.close();
  const text = options.file ? "" : await readFile(file, "utf8");
  return {
    said,
    text,
    lines: text
      .trimEnd()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as RecordedExchange),
  };
}

describe("Recorder", () => {
  it("keeps the headers the service reads and which key was sent, never the key, cookies or the user agent", async () => {
    const { lines, text } = await recordAll([passed()], { apiKey: "k-123456789" });
    expect(lines[0]!.request).toEqual({ auth: "key", headers: { accept: "application/json" }, body: null });
    expect(lines[0]!.durationMs).toBe(2.3);
    expect(text).not.toContain("k-123456789");
    expect(text).not.toContain("s=1");
  });

  it.each([
    ["the key of FILE_LIBRARY_API_KEY", "k-123456789", "k-123456789", 200, "key"],
    ["another token", "k-123456789", "other-token-1", 200, "other"],
    ["without the key's variable, a token the service took", undefined, "k-123456789", 200, "key"],
    ["without the key's variable, a token refused", undefined, "k-123456789", 401, "other"],
    ["a token of another scheme", "k-123456789", "k-123456789", 200, "other"],
  ] as const)("marks %s", async (what, apiKey, token, status, auth) => {
    const authorization = what === "a token of another scheme" ? `Token ${token}` : `Bearer ${token}`;
    const { lines } = await recordAll(
      [passed({ status, requestHeaders: { authorization } })],
      apiKey ? { apiKey } : {},
    );
    expect(lines[0]!.request.auth).toBe(auth);
  });

  it("records a gzip answer as its text, blanks secret-named answer headers, and leaves out hop-by-hop ones", async () => {
    const { lines } = await recordAll([
      passed({
        responseHeaders: {
          "content-type": "application/json",
          "content-encoding": "gzip",
          "set-cookie": ["a=1", "b=2"],
          "x-api-token": "t",
          connection: "keep-alive",
          "x-note": "for k-123456789",
        },
        responseBody: body(gzipSync('{"id":"doc-1"}')),
      }),
    ]);
    expect(lines[0]!.response).toEqual({
      status: 200,
      headers: {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "set-cookie": "[REDACTED]",
        "x-api-token": "[REDACTED]",
        "x-note": "for [REDACTED]",
      },
      body: { text: '{"id":"doc-1"}' },
    });
  });

  it("elides a body that is not UTF-8, and one the proxy did not keep whole (without a sha256: not every byte was seen)", async () => {
    const { lines } = await recordAll([
      passed({ responseBody: body(new Uint8Array([0x7b, 0xff, 0x7d])) }),
      passed({ responseBody: body("{}", true) }),
    ]);
    expect(lines[0]!.response.body).toEqual({ elided: "not UTF-8 text", bytes: 3 });
    expect(lines[1]!.response.body).toEqual({
      elided: "the body is over 1000 bytes (FILE_LIBRARY_MAX_RESPONSE_BYTES)",
      bytes: 20,
    });
  });

  it("puts on each line the operation and the findings the judge reported for that exchange alone, and passes every event on", async () => {
    const next = noEvents();
    const file = path.join(scratch, "events.jsonl");
    const recorder = await Recorder.open(file, { apiKey: undefined, maxBytes: 1000 });
    const events = recorder.listen(next);
    const finding = {
      side: "service" as const,
      operation: "getFile",
      check: "response_schema_conformance",
      problem: "size must be integer",
      curl: "curl …",
      status: 200,
    };
    recorder.record(passed(), () => (events.seen("getFile", 200), events.finding(finding)), redact);
    recorder.record(passed({ target: "/health" }), () => events.seen(undefined, 404), redact);
    // A judge that throws: the exchange is still recorded, and the error reaches the proxy.
    expect(() =>
      recorder.record(
        passed(),
        () => (
          events.seen("getFile", 200),
          events.warning(finding),
          events.notChecked("getFile", "r"),
          events.preflight(),
          (() => {
            throw new Error("bug");
          })()
        ),
        redact,
      ),
    ).toThrow("bug");
    await recorder.close();
    const lines = (await readFile(file, "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as RecordedExchange);
    expect(lines.map((l) => [l.seq, l.operation, l.findings])).toEqual([
      [1, "getFile", [{ side: "service", check: "response_schema_conformance", problem: "size must be integer" }]],
      [2, null, []],
      [3, "getFile", []],
    ]);
    expect(next.finding).toHaveBeenCalledWith(finding);
    expect(
      [next.seen, next.warning, next.notChecked, next.preflight].map(
        (f) => (f as ReturnType<typeof vi.fn>).mock.calls.length,
      ),
    ).toEqual([3, 1, 1, 1]);
  });

  it("drops lines, and says how many, rather than hold more than its buffer while the disk is behind", async () => {
    const { lines, said } = await recordAll([passed(), passed(), passed()], { maxBufferedBytes: 1 });
    expect(lines).toHaveLength(1);
    expect(said).toBe(
      "the recording is incomplete: 2 exchange(s) not recorded (2 dropped while more than 1 bytes were waiting for the disk)",
    );
    expect((await recordAll([passed()])).said).toBeUndefined();
  });

  it("names the disk's error for lines it refused, also when the last write is still pending as the recording closes", async () => {
    // Linux's /dev/full opens, then refuses every write with ENOSPC, as a full disk does; close() comes at once.
    for (const count of [1, 3]) {
      const { said } = await recordAll(
        Array.from({ length: count }, () => passed()),
        { file: "/dev/full" },
      );
      expect(said).toBe(
        `the recording is incomplete: ${count} exchange(s) not recorded (${count} refused: ENOSPC: no space left on device, write)`,
      );
    }
  });

  it("names both causes when the disk fell behind and then refused, and holds 16 MiB by default", async () => {
    // The first line waits for /dev/full, the next two are dropped while it waits, then the disk refuses it.
    const { said } = await recordAll([passed(), passed(), passed()], { file: "/dev/full", maxBufferedBytes: 1 });
    expect(said).toBe(
      "the recording is incomplete: 3 exchange(s) not recorded (1 refused: ENOSPC: no space left on device, write; 2 dropped while more than 1 bytes were waiting for the disk)",
    );
    expect(MAX_BUFFERED_BYTES).toBe(16 * 1024 * 1024);
  });

  it("gives a line it leaves out its seq all the same: the numbers missing from the file are the holes", async () => {
    const file = path.join(await mkdtemp(path.join(scratch, "r-")), "out.jsonl");
    const recorder = await Recorder.open(file, { apiKey: undefined, maxBytes: 1000, maxBufferedBytes: 1 });
    recorder.record(passed(), () => {}, redact);
    // Dropped: the first line is still waiting for the disk.
    recorder.record(passed(), () => {}, redact);
    // Once the disk has the first line (an empty write's callback comes after it), the next line is written.
    const out = (recorder as unknown as { out: Writable }).out;
    await new Promise((resolve) => out.write("", resolve));
    recorder.record(passed(), () => {}, redact);
    expect(await recorder.close()).toBe(
      "the recording is incomplete: 1 exchange(s) not recorded (1 dropped while more than 1 bytes were waiting for the disk)",
    );
    const lines = (await readFile(file, "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as RecordedExchange);
    expect(lines.map((l) => l.seq)).toEqual([1, 3]);
  });

  it("stops waiting for a destination that takes no more (a pipe nobody reads): close() ends within its bound, or at once on giveUp()", async () => {
    // A FIFO whose reader never reads: the pipe takes 64 KiB, then every write waits, as on a stalled disk.
    const fifo = path.join(await mkdtemp(path.join(scratch, "fifo-")), "recording.jsonl");
    execFileSync("mkfifo", [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const big = body(JSON.stringify({ labels: ["x".repeat(60_000)] }));
      for (const [wait, giveUp] of [
        [300, false],
        [60_000, true],
      ] as const) {
        const recorder = await Recorder.open(fifo, { apiKey: undefined, maxBytes: 100_000 });
        for (let i = 0; i < 4; i++) recorder.record(passed({ responseBody: big }), () => {}, redact);
        const started = performance.now();
        const closing = recorder.close(wait);
        if (giveUp) recorder.giveUp();
        const said = await closing;
        expect(performance.now() - started).toBeLessThan(5_000);
        expect(said).toMatch(
          new RegExp(
            `^the recording is incomplete: [1-4] exchange\\(s\\) not recorded \\([1-4] still waiting for ".*recording\\.jsonl" when the proxy stopped: ${giveUp ? "the proxy was stopped at once \\(a second signal\\)" : "it took no more within 0\\.3 s"}\\)$`,
          ),
        );
      }
    } finally {
      // The writes still held by the pipe end (EPIPE) once its reader is gone.
      closeSync(reader);
    }
  });

  it("refuses a FIFO that nothing reads at once, as a wrong --record, where opening it would wait for a reader forever", async () => {
    const fifo = path.join(await mkdtemp(path.join(scratch, "fifo-")), "unread.jsonl");
    execFileSync("mkfifo", [fifo]);
    const started = performance.now();
    await expect(Recorder.open(fifo, { apiKey: undefined, maxBytes: 1_000 })).rejects.toThrow(
      /^--record cannot write ".*unread\.jsonl": it is a FIFO that nothing reads: start its reader first$/,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
