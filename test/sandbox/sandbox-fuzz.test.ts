// covers: sandbox/node-adapter.ts, sandbox/core/service.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:http";
import { connect, type AddressInfo } from "node:net";
import fc from "fast-check";
import { fromRoot } from "../../scripts/lib/paths.ts";
import type { PlainAnswer } from "../../sandbox/core/plain.ts";
import { nodeRequestListener } from "../../sandbox/node-adapter.ts";
import { call, FILES, sandbox, SANDBOX_KEY } from "../support/sandbox.ts";

let sb: Awaited<ReturnType<typeof sandbox>>;
let port: number;
beforeAll(async () => {
  sb = await sandbox({ fixturesFile: fromRoot("test/fixtures/sandbox-files.json"), maxBodyBytes: 4096 });
  port = Number(new URL(sb.baseUrl).port);
});
afterAll(() => sb.close());

/**
 * Sends raw bytes on a connection of their own and resolves with the status of the answer, or 0 when the sandbox
 * closed the connection without one (as node:http does with some unparseable requests). Bounded in time.
 */
function rawStatus(bytes: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no answer and no close within 5 s to ${JSON.stringify(bytes.toString("latin1").slice(0, 120))}`),
      );
    }, 5_000);
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
      if (status) {
        clearTimeout(timer);
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(0);
    });
    socket.end(bytes);
  });
}

const request = (line: string | Buffer, headers: string[] = [`Authorization: Bearer ${SANDBOX_KEY}`], body = "") =>
  Buffer.concat([
    Buffer.isBuffer(line) ? line : Buffer.from(line, "latin1"),
    Buffer.from(`\r\nHost: x\r\n${headers.map((h) => `${h}\r\n`).join("")}Connection: close\r\n\r\n${body}`, "latin1"),
  ]);

// Request targets that have broken servers: unparseable authorities, absolute forms, bad percent-encoding,
// invalid UTF-8, dot segments, NULs, an id far over any sane length.
const HOSTILE_TARGETS = [
  "//[",
  "//[::1",
  "http://[/x",
  "http://x/studio/v1/library/files/doc-1",
  "*",
  "",
  "%",
  `${FILES}/%`,
  `${FILES}/%zz`,
  `${FILES}/%C3%28`,
  `${FILES}/%FF%FE`,
  `${FILES}/doc-1/../doc-2`,
  `${FILES}/doc-1%00`,
  `${FILES}/${"a".repeat(8000)}`,
  `${FILES}/doc-1?${"q=1&".repeat(500)}`,
  "/sandbox/content/%",
  "/sandbox/content/doc-1?expires=%&signature=%",
  "/sandbox/content/?expires=1&signature=zz",
];

describe("the sandbox answers no raw request with a 5xx, and stays up", { timeout: 120_000 }, () => {
  it.each(
    HOSTILE_TARGETS.map((target) => [
      target.length > 60 ? `${target.slice(0, 60)}… (${target.length} characters)` : target,
      target,
    ]),
  )("target %j", async (_, target) => {
    for (const method of ["GET", "PUT"]) {
      const status = await rawStatus(request(`${method} ${target} HTTP/1.1`));
      expect(status, `${method} ${target.slice(0, 80)}`).toBeLessThan(500);
    }
  });

  it("odd methods, malformed request lines, header floods and invalid UTF-8 in headers and bodies", async () => {
    const cases: Buffer[] = [
      request(`BREW ${FILES}/doc-1 HTTP/1.1`),
      request(`OPTIONS ${FILES}/doc-1 HTTP/1.1`, ["Origin: http://a.test", "Access-Control-Request-Method: PUT"]),
      request(`DELETE ${FILES}/doc-1 HTTP/1.1`),
      request(`GET ${FILES}/doc-1 HTTP/9.9`),
      request(`GET  HTTP/1.1`),
      request(`GET ${FILES}/doc-1`),
      request(Buffer.from([0x47, 0x45, 0x54, 0x20, 0xff, 0xfe, 0x20, 0x48, 0x54, 0x54, 0x50, 0x2f, 0x31, 0x2e, 0x31])),
      request(
        `GET ${FILES}/doc-1 HTTP/1.1`,
        Array.from({ length: 2000 }, (_, i) => `X-Flood-${i}: ${"v".repeat(20)}`),
      ),
      request(`GET ${FILES}/doc-1 HTTP/1.1`, [`Authorization: Bearer ${"\xff".repeat(40)}`]),
      request(`GET ${FILES}/doc-1 HTTP/1.1`, ["Authorization: Bearer", "Authorization: Basic x"]),
      request(
        `PUT ${FILES}/doc-1 HTTP/1.1`,
        [`Authorization: Bearer ${SANDBOX_KEY}`, "Content-Type: application/json", "Content-Length: 12"],
        '{"labels":"\xff',
      ),
      request(
        `PUT ${FILES}/doc-1 HTTP/1.1`,
        [`Authorization: Bearer ${SANDBOX_KEY}`, "Content-Type: application/json", "Content-Length: 99"],
        "{}",
      ),
      request(
        `PUT ${FILES}/doc-1 HTTP/1.1`,
        [`Authorization: Bearer ${SANDBOX_KEY}`, "Content-Type: application/json", "Transfer-Encoding: chunked"],
        "zz\r\n{}\r\n0\r\n\r\n",
      ),
      request(
        `PUT ${FILES}/doc-1 HTTP/1.1`,
        [`Authorization: Bearer ${SANDBOX_KEY}`, "Content-Type: application/json", "Content-Length: 5000000"],
        "{",
      ),
      request(
        `PUT ${FILES}/doc-1 HTTP/1.1`,
        [`Authorization: Bearer ${SANDBOX_KEY}`, "Content-Type: application/json; charset=latin1", "Content-Length: 2"],
        "[]",
      ),
    ];
    for (const bytes of cases) expect(await rawStatus(bytes), bytes.toString("latin1").slice(0, 80)).toBeLessThan(500);
  });

  it("generated targets: random bytes, percent-encodings and segments under the API's path", async () => {
    const byte = fc.integer({ min: 0x21, max: 0xff }).filter((b) => b !== 0x7f);
    const segment = fc.oneof(
      fc.array(byte, { maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
      fc
        .array(fc.integer({ min: 0, max: 255 }), { maxLength: 8 })
        .map((bytes) => bytes.map((b) => `%${b.toString(16).padStart(2, "0")}`).join("")),
      fc.constantFrom("..", ".", "%2e%2E", "%2F", "%", "%%", "%g0", "[", "]", "@", ":"),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("GET", "PUT", "HEAD", "PATCH"),
        async (segments, method) => {
          const line = Buffer.concat([
            Buffer.from(`${method} ${FILES}/`),
            Buffer.from(segments.join("/"), "latin1"),
            Buffer.from(" HTTP/1.1"),
          ]);
          expect(await rawStatus(request(line))).toBeLessThan(500);
        },
      ),
      { numRuns: 300, seed: 20261123 },
    );
  });

  it("a client that goes away mid-request is logged as such, not as an internal error", async () => {
    const gone = new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(
          `PUT ${FILES}/doc-1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SANDBOX_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"labe`,
          () => socket.destroy(),
        );
      });
      socket.on("close", () => resolve());
    });
    await gone;
    await expect
      .poll(() => sb.logs.some((line) => line.includes("client closed the connection before the request was complete")))
      .toBe(true);
  });

  it("stays up and logs no internal error afterwards", async () => {
    expect((await call(sb.baseUrl, `${FILES}/doc-1`)).status).toBe(200);
    expect(sb.logs.filter((line) => line.includes("internal error"))).toEqual([]);
  });
});

describe("a service that fails", () => {
  // The adapter alone, in front of a service that rejects, or throws where it should reject.
  it.each([
    ["rejects", () => Promise.reject(new Error("storage broke"))],
    [
      "throws instead of rejecting",
      () => {
        throw new Error("storage broke");
      },
    ],
  ] as const)(
    "%s: the request gets 500 with the error body, the log says why, and the server stays up",
    async (_, failing) => {
      const logs: string[] = [];
      let calls = 0;
      const server = createServer(
        nodeRequestListener(
          () =>
            ++calls === 1
              ? (failing as () => Promise<PlainAnswer>)()
              : Promise.resolve({ status: 200, headers: { "content-type": "text/plain" }, body: "ok" }),
          { maxBodyBytes: 1024, log: (line) => logs.push(line) },
        ),
      );
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const failed = await fetch(`${base}${FILES}/doc-1`);
        expect(failed.status).toBe(500);
        expect(await failed.json()).toEqual({ code: "internal_error", message: "The sandbox failed; see its log." });
        expect(logs.some((line) => line.startsWith("internal error: Error: storage broke"))).toBe(true);
        expect(await (await fetch(`${base}${FILES}/doc-1`)).text()).toBe("ok");
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});

describe("signed URLs have one spelling", () => {
  it("serves the URL as signed, and refuses its expiry padded with a zero and its id encoded otherwise", async () => {
    const signed = await (await call(sb.baseUrl, `${FILES}/doc-1/download`)).text();
    expect((await fetch(signed)).status).toBe(200);
    const url = new URL(signed);
    const padded = new URL(signed);
    padded.searchParams.set("expires", `0${url.searchParams.get("expires")}`);
    expect((await fetch(padded)).status).toBe(403);
    // %64 is "d": the same id, spelled another way.
    expect((await fetch(signed.replace("/sandbox/content/doc-1", "/sandbox/content/%64oc-1"))).status).toBe(403);
  });
});
