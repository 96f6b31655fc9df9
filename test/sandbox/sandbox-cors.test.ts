// covers: sandbox/cors.ts
import { afterEach, describe, expect, it } from "vitest";
import { request, type IncomingHttpHeaders } from "node:http";
import type { CorsOrigins } from "../../sandbox/cors.ts";
import { FILES, sandbox, SANDBOX_KEY } from "../support/sandbox.ts";

const APP = "http://localhost:5173";
const EXPOSED = "x-request-id, retry-after, retry-after-ms, x-should-retry";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(corsOrigins?: CorsOrigins): Promise<string> {
  const sb = await sandbox({ ...(corsOrigins === undefined ? {} : { corsOrigins }) });
  close = () => sb.close();
  return sb.baseUrl;
}

/** One request as a browser sends it, Origin included (fetch would not let us set it), with the body read. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const preflight = (url: string, origin: string, method: string, headers = "authorization, content-type") =>
  send(url, "OPTIONS", { origin, "access-control-request-method": method, "access-control-request-headers": headers });
const auth = { authorization: `Bearer ${SANDBOX_KEY}` };

describe("the sandbox serves browser apps on other origins (CORS)", () => {
  it("answers a preflight of every route with 204, the route's methods, the client's headers and a max age", async () => {
    const base = await start();
    const update = await preflight(
      `${base}${FILES}/file_demo_notes`,
      APP,
      "PUT",
      "authorization, content-type, x-app-version",
    );
    expect(update.status).toBe(204);
    expect(update.headers["access-control-allow-origin"]).toBe("*");
    expect(update.headers["access-control-allow-methods"]).toBe("GET, PUT, OPTIONS");
    expect(update.headers["access-control-allow-headers"]).toBe("authorization, content-type, accept, x-app-version");
    expect(update.headers["access-control-max-age"]).toBe("600");
    const download = await preflight(`${base}${FILES}/file_demo_notes/download`, APP, "GET", "authorization");
    expect(download.status).toBe(204);
    expect(download.headers["access-control-allow-methods"]).toBe("GET, OPTIONS");
  });

  it("puts Allow-Origin and the headers the client reads on every answer: success, 401, 422 and the signed content", async () => {
    const base = await start();
    const answers = [
      await send(`${base}${FILES}/file_demo_notes`, "GET", { origin: APP, ...auth }),
      await send(`${base}${FILES}/file_demo_notes`, "GET", { origin: APP }),
      await send(`${base}${FILES}/no-such-file`, "GET", { origin: APP, ...auth }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 422]);
    const signed = await send(`${base}${FILES}/file_demo_notes/download`, "GET", { origin: APP, ...auth });
    answers.push(await send(signed.body, "GET", { origin: APP }));
    expect(answers.at(-1)!.status).toBe(200);
    for (const answer of answers) {
      expect(answer.headers["access-control-allow-origin"]).toBe("*");
      expect(answer.headers["access-control-expose-headers"]).toBe(EXPOSED);
    }
  });

  it("with --cors-origin, allows only those origins: echoed back with Vary: Origin, others refused at the preflight", async () => {
    const base = await start([APP]);
    const allowed = await send(`${base}${FILES}/file_demo_notes`, "GET", { origin: APP, ...auth });
    expect(allowed.headers["access-control-allow-origin"]).toBe(APP);
    expect(allowed.headers.vary).toMatch(/origin/i);
    const other = await send(`${base}${FILES}/file_demo_notes`, "GET", { origin: "http://evil.example", ...auth });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    const refused = await preflight(`${base}${FILES}/file_demo_notes`, "http://evil.example", "PUT");
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).message).toContain("--cors-origin http://evil.example");
  });

  it("with --cors-origin none, sends no CORS header and answers a preflight as any other OPTIONS (405)", async () => {
    const base = await start("none");
    const answer = await send(`${base}${FILES}/file_demo_notes`, "GET", { origin: APP, ...auth });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    expect((await preflight(`${base}${FILES}/file_demo_notes`, APP, "PUT")).status).toBe(405);
  });
});
