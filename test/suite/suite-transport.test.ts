// covers: contract-tests/http/transport.ts, contract-tests/http/no-answer.ts
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { NoAnswerError } from "../../contract-tests/http/no-answer.ts";
import { Transport, type SendPolicy } from "../../contract-tests/http/transport.ts";
import { closedPort } from "../support/closed-port.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, requestOnSocket: number) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A local server whose handler knows how many requests the connection has carried, this one included. */
async function serve(handler: Handler): Promise<string> {
  const perSocket = new WeakMap<Socket, number>();
  const server = createServer((req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    req.resume();
    handler(req, res, n);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/studio/v1/library/files/f1`;
}

/** Sends over a transport of its own, unless given one (to share its connections). */
const sendRequest = (
  url: string,
  init: { method: string; body?: string },
  { timeoutMs, ...policy }: SendPolicy & { timeoutMs: number },
  transport?: Transport,
) => (transport ?? new Transport({ timeoutMs, maxBytes: 1_048_576 })).send(url, init, policy);

const ok = (res: ServerResponse) => res.end("ok");
const drop = (req: IncomingMessage) => req.socket.destroy();

describe("the contract suite's transport", () => {
  it("retries once when the server closes a kept-alive connection as the next request arrives, and records why", async () => {
    // The keep-alive race, made deterministic: the second request on a connection finds it closed.
    const url = await serve((req, res, n) => (n === 2 ? drop(req) : ok(res)));
    const transport = new Transport({ timeoutMs: 5_000, maxBytes: 1_048_576 });
    // A read, then an update on the same connection (undici frees a connection at once after a GET).
    const first = await sendRequest(url, { method: "GET" }, { timeoutMs: 5_000 }, transport);
    expect(first.failedAttempts).toEqual([]);
    // undici hands the connection back to its pool one event-loop turn after the body is read; the suite always
    // does work between requests, so the next one reuses it.
    await new Promise(setImmediate);

    const second = await sendRequest(url, { method: "PUT", body: "{}" }, { timeoutMs: 5_000 }, transport);
    expect(second.response.status).toBe(200);
    expect(second.text).toBe("ok");
    expect(second.failedAttempts).toEqual([
      {
        attempt: 1,
        reason: expect.stringMatching(/^the server closed the connection before answering \(/),
        afterMs: expect.any(Number),
        closedByServer: true,
        reusedConnection: true,
        idleMs: expect.any(Number),
        keepAlive: "timeout=5",
      },
    ]);
  });

  it("sends the retry on a new connection, not on another kept-alive one the server may have closed as well", async () => {
    // Every connection's second request finds it closed: a retry on any kept-alive connection fails again.
    const url = await serve((req, res, n) => (n === 2 ? drop(req) : ok(res)));
    const transport = new Transport({ timeoutMs: 5_000, maxBytes: 1_048_576 });
    // Two at once: the pool then holds two idle connections, each of which has carried one request.
    await Promise.all([
      sendRequest(url, { method: "GET" }, { timeoutMs: 5_000 }, transport),
      sendRequest(url, { method: "GET" }, { timeoutMs: 5_000 }, transport),
    ]);
    await new Promise(setImmediate);

    const third = await sendRequest(url, { method: "GET" }, { timeoutMs: 5_000 }, transport);
    expect(third.text).toBe("ok");
    expect(third.failedAttempts).toEqual([
      expect.objectContaining({ attempt: 1, closedByServer: true, reusedConnection: true }),
    ]);
    await transport.close();
  });

  it("after a server closed a connection unanswered, sends each later request to it on a connection of its own", async () => {
    // Every connection's second request finds it closed (drops-kept-alive-connections is every third): each reuse costs a retry.
    const connections: Array<string | undefined> = [];
    const url = await serve((req, res, n) =>
      n === 2 ? drop(req) : (connections.push(req.headers.connection), ok(res)),
    );
    const transport = new Transport({ timeoutMs: 5_000, maxBytes: 1_048_576 });
    await sendRequest(url, { method: "GET" }, { timeoutMs: 5_000 }, transport);
    await new Promise(setImmediate);
    expect((await sendRequest(url, { method: "GET" }, { timeoutMs: 5_000 }, transport)).failedAttempts).toHaveLength(1);
    const later = [];
    for (let i = 0; i < 5; i++) {
      await new Promise(setImmediate);
      later.push(await sendRequest(url, { method: "GET" }, { timeoutMs: 5_000 }, transport));
    }
    expect(later.map((answer) => answer.failedAttempts)).toEqual(Array(5).fill([]));
    expect(connections.slice(-5)).toEqual(Array(5).fill("close"));
    await transport.close();
  });

  it("gives up after the retry, with every attempt in the message: which request, after how long, closed by the server", async () => {
    const url = await serve((req) => drop(req));
    const error = await sendRequest(url, { method: "GET" }, { timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoAnswerError);
    const { attempts, message } = error as NoAnswerError;
    expect(attempts.map((a) => [a.attempt, a.closedByServer])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(message).toMatch(
      /^GET \/studio\/v1\/library\/files\/f1 got no HTTP answer from http:\/\/127\.0\.0\.1:\d+ after 2 attempts: attempt 1: the server closed the connection before answering \(.+\), \d+ ms after sending, on a new connection; attempt 2: /,
    );
  });

  it("does not retry a method that is not idempotent", async () => {
    const url = await serve((req) => drop(req));
    const error = (await sendRequest(url, { method: "POST", body: "{}" }, { timeoutMs: 5_000 }).catch(
      (e: unknown) => e,
    )) as NoAnswerError;
    expect(error.attempts).toHaveLength(1);
  });

  it("does not retry a refused connection or a timeout, and says which it was", async () => {
    const refused = (await sendRequest(
      `http://127.0.0.1:${await closedPort()}/x`,
      { method: "GET" },
      { timeoutMs: 5_000 },
    ).catch((e: unknown) => e)) as NoAnswerError;
    expect(refused.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        closedByServer: false,
        reason: "nothing accepts connections there (ECONNREFUSED)",
      }),
    ]);

    const url = await serve(() => {}); // never answers
    const timedOut = (await sendRequest(url, { method: "GET" }, { timeoutMs: 200 }).catch(
      (e: unknown) => e,
    )) as NoAnswerError;
    expect(timedOut.attempts).toEqual([
      expect.objectContaining({ attempt: 1, closedByServer: false, reason: "no answer within 200 ms" }),
    ]);
  });

  // The suite's own deadline is the suite's, and a connection the server closed is the server's: one attempt each.
  it("says when its own timeout stopped a body that began, and when the server cut one short", async () => {
    const stalls = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"id":');
    });
    const slow = (await sendRequest(stalls, { method: "GET" }, { timeoutMs: 300 }).catch(
      (e: unknown) => e,
    )) as NoAnswerError;
    expect(slow).toBeInstanceOf(NoAnswerError);
    expect(slow.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        closedByServer: false,
        reason:
          "the answer (HTTP 200) began, but its body did not end within the suite's 300 ms (FILE_LIBRARY_REQUEST_TIMEOUT_MS)",
      }),
    ]);

    const cuts = await serve((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"id":', () => req.socket.destroy());
    });
    const cut = (await sendRequest(cuts, { method: "GET" }, { timeoutMs: 5_000 }).catch(
      (e: unknown) => e,
    )) as NoAnswerError;
    expect(cut.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        closedByServer: true,
        reason: expect.stringMatching(
          /^the answer \(HTTP 200\) broke off while its body was read: the server closed the connection \(.+\)$/,
        ),
      }),
    ]);
  });

  it("counts the retry against the budget: when none is left, the failure stands and says why it was not retried", async () => {
    const url = await serve((req) => drop(req));
    let left = 1;
    const beforeAttempt = () => {
      if (left-- <= 0) throw new Error("the run's request budget of 1 is spent");
    };
    const error = (await sendRequest(url, { method: "GET" }, { timeoutMs: 5_000, beforeAttempt }).catch(
      (e: unknown) => e,
    )) as NoAnswerError;
    expect(error).toBeInstanceOf(NoAnswerError);
    expect(error.attempts).toHaveLength(1);
    expect(error.attempts[0]!.reason).toMatch(/; not retried: the run's request budget of 1 is spent$/);
  });
});
