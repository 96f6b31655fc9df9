// covers: contract-tests/proxy/forward.ts
// HTTP an app and a server may exchange that the proxy must pass on and end: a reason phrase outside ASCII, interim
// answers before the final one, and a request that expects 100-continue. The app gets its answer every time.
import { afterEach, describe, expect, it } from "vitest";
import { request } from "node:http";
import type { Socket } from "node:net";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startProxy } from "../../contract-tests/index.ts";
import { rawUpstream as startRawUpstream } from "../support/raw-upstream.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A raw upstream, stopped after the test. */
async function rawUpstream(answer: (socket: Socket) => void): Promise<string> {
  const upstream = await startRawUpstream(answer);
  cleanups.push(() => upstream.close());
  return upstream.origin;
}

const BODY = '{"id":"doc-1","name":"a.txt","size":1,"created_at":"2026-01-02T03:04:05Z","labels":[]}';
const final = (reason: string) =>
  Buffer.concat([
    Buffer.from(`HTTP/1.1 200 `, "latin1"),
    Buffer.from(reason, "utf8"),
    Buffer.from(
      `\r\ncontent-type: application/json\r\nx-request-id: r1\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`,
      "latin1",
    ),
  ]);

/** One request through a proxy, as node:http sends it; resolves with what the app saw: interim statuses, status, reason, body. */
async function through(upstream: string, options: { expectContinue?: boolean } = {}) {
  const proxy = await startProxy({
    upstream,
    reportDir: await mkdtemp(path.join(os.tmpdir(), "file-library-odd-http-")),
    env: { FILE_LIBRARY_API_KEY: "k-0123456789" },
    say: () => {},
  });
  cleanups.push(() => proxy.stop());
  const interim: number[] = [];
  return new Promise<{ interim: number[]; status: number; reason: string; body: string }>((resolve, reject) => {
    const body = JSON.stringify({ labels: ["a"] });
    const req = request(`${proxy.url}/studio/v1/library/files/doc-1`, {
      method: options.expectContinue ? "PUT" : "GET",
      headers: {
        authorization: "Bearer k-0123456789",
        ...(options.expectContinue
          ? { "content-type": "application/json", "content-length": body.length, expect: "100-continue" }
          : {}),
      },
    });
    req.on("information", (info) => interim.push(info.statusCode));
    req.on("continue", () => req.end(body));
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("latin1");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ interim, status: res.statusCode!, reason: res.statusMessage!, body: text }));
    });
    req.on("error", reject);
    if (!options.expectContinue) req.end();
  });
}

describe("the proxy passes on any HTTP an app and a server exchange, and ends every exchange", {
  timeout: 30_000,
}, () => {
  it("a reason phrase outside ASCII goes on as the bytes the upstream sent (it hung the app before)", async () => {
    const upstream = await rawUpstream((socket) => socket.end(final("Très bien ✓")));
    const seen = await through(upstream);
    expect(seen.status).toBe(200);
    expect(Buffer.from(seen.reason, "latin1").toString("utf8")).toBe("Très bien ✓");
    expect(seen.body).toBe(BODY);
  });

  it("103 Early Hints and 102 Processing reach the app as interim answers, then the final answer", async () => {
    const upstream = await rawUpstream((socket) =>
      socket.end(
        Buffer.concat([
          Buffer.from(
            "HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n",
          ),
          final("OK"),
        ]),
      ),
    );
    const seen = await through(upstream);
    expect(seen.interim).toEqual([102, 103]);
    expect([seen.status, seen.reason, seen.body]).toEqual([200, "OK", BODY]);
  });

  it("a request with Expect: 100-continue is answered, not refused with a 502", async () => {
    const upstream = await rawUpstream((socket) =>
      socket.end("HTTP/1.1 200 OK\r\nx-request-id: r2\r\ncontent-length: 0\r\n\r\n"),
    );
    const seen = await through(upstream, { expectContinue: true });
    expect(seen.interim).toContain(100);
    expect(seen.status).toBe(200);
  });
});
