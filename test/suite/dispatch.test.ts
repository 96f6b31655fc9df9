// covers: contract-tests/http/dispatch.ts
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { dispatch, newAgent } from "../../contract-tests/http/dispatch.ts";
import { readLimited } from "../../src/response-limit.ts";

const servers: Server[] = [];
const agent = newAgent();
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
afterAll(() => agent.close());

/** A local server on a free port, or on `port`; resolves with its origin. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, port = 0): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const text = async (body: ReadableStream<Uint8Array> | null, max = 1_048_576) => {
  const { bytes, cut } = await readLimited(body, max);
  return { text: new TextDecoder().decode(bytes), cut };
};

describe("the suite's dispatch: fetch's behaviour, on any port", () => {
  it("reaches a port fetch refuses as a bad port", async () => {
    let origin: string | undefined;
    for (const port of [10080, 6000, 5060, 4190, 6665, 6666, 6667, 6668, 6669, 6697]) {
      origin = await serve((_req, res) => res.end("reached"), port).catch(() => undefined);
      if (origin) break;
    }
    expect(origin, "a free bad port").toBeDefined();
    await expect(fetch(origin!)).rejects.toThrow();
    const answer = await dispatch(agent, `${origin}/x`, { method: "GET" });
    expect(answer.status).toBe(200);
    expect((await text(answer.body)).text).toBe("reached");
  });

  it("sends fetch's default headers, and the caller's over them", async () => {
    let seen: IncomingMessage["headers"] = {};
    const origin = await serve((req, res) => ((seen = req.headers), res.end()));
    await dispatch(agent, `${origin}/x?q=1`, { method: "GET", headers: { accept: "application/json" } });
    expect(seen).toMatchObject({
      accept: "application/json",
      "accept-encoding": "gzip, deflate, br",
      "user-agent": "node",
    });
  });

  it.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
  ] as const)("decodes a %s body, within the limit counted after decompression", async (coding, compress) => {
    const origin = await serve((_req, res) =>
      res.writeHead(200, { "content-encoding": coding }).end(compress(Buffer.from("x".repeat(5_000)))),
    );
    expect(await text((await dispatch(agent, origin, { method: "GET" })).body)).toEqual({
      text: "x".repeat(5_000),
      cut: false,
    });
    expect(await text((await dispatch(agent, origin, { method: "GET" })).body, 100)).toEqual({
      text: "x".repeat(100),
      cut: true,
    });
  });

  it("decodes codings last applied first, leaves an unknown coding as it came, and refuses more than five", async () => {
    const hello = Buffer.from("hello");
    const origin = await serve((req, res) => {
      if (req.url === "/two")
        return res.writeHead(200, { "content-encoding": "deflate, gzip" }).end(gzipSync(deflateSync(hello)));
      if (req.url === "/unknown") return res.writeHead(200, { "content-encoding": "compress" }).end(hello);
      res.writeHead(200, { "content-encoding": "gzip, gzip, gzip, gzip, gzip, gzip" }).end(hello);
    });
    expect((await text((await dispatch(agent, `${origin}/two`, { method: "GET" })).body)).text).toBe("hello");
    expect((await text((await dispatch(agent, `${origin}/unknown`, { method: "GET" })).body)).text).toBe("hello");
    await expect(dispatch(agent, `${origin}/six`, { method: "GET" })).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/too many content-encodings/) },
    });
  });

  it("returns a redirect as it came, unless told to follow; follows at most 20, and keeps the key to its origin", async () => {
    let authorization: string | undefined;
    const other = await serve((req, res) => ((authorization = req.headers.authorization), res.end("there")));
    const origin = await serve((req, res) => {
      const n = Number(req.url!.slice(1));
      res.writeHead(302, { location: n === 0 ? `${other}/end` : `/${n - 1}` }).end();
    });
    const manual = await dispatch(agent, `${origin}/3`, { method: "GET" });
    expect([manual.status, manual.headers.get("location")]).toEqual([302, "/2"]);
    const followed = await dispatch(agent, `${origin}/19`, {
      method: "GET",
      redirect: "follow",
      headers: { authorization: "Bearer k" },
    });
    expect([followed.status, (await text(followed.body)).text, authorization]).toEqual([200, "there", undefined]);
    await expect(dispatch(agent, `${origin}/20`, { method: "GET", redirect: "follow" })).rejects.toMatchObject({
      cause: { message: "redirect count exceeded" },
    });
  });

  it("asks the server to close the connection when told", async () => {
    let connection: string | undefined;
    const origin = await serve((req, res) => ((connection = req.headers.connection), res.end()));
    await dispatch(agent, origin, { method: "GET", closeConnection: true });
    expect(connection).toBe("close");
    await dispatch(agent, origin, { method: "GET" });
    expect(connection).toBe("keep-alive");
  });
});
