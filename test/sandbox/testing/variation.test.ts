// covers: sandbox/testing/index.ts, sandbox/start.ts
// The testing entry as another team's suite uses it: startSandbox with the settings `variation` makes from names.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Agent, get } from "node:http";
import { startSandbox, variation, type RunningSandbox, type SandboxConfig } from "../../../sandbox/testing/index.ts";
import { ensureBundle, FILES, SANDBOX_KEY } from "../../support/sandbox.ts";
import { fromRoot } from "../../../scripts/lib/paths.ts";

beforeAll(() => ensureBundle());

const started: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sb) => sb.close()));
});

async function start(settings: Partial<SandboxConfig>): Promise<string> {
  const sb = await startSandbox({
    apiKey: SANDBOX_KEY,
    fixturesFile: fromRoot("test/fixtures/sandbox-files.json"),
    log: () => {},
    ...settings,
  });
  started.push(sb);
  return sb.baseUrl;
}

/** The status and headers of a GET with the key, on a kept-alive connection of its own (node:http: the headers as sent). */
const answerTo = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const agent = new Agent({ keepAlive: true });
    get(url, { agent, headers: { authorization: `Bearer ${SANDBOX_KEY}`, ...headers } }, (res) => {
      res.resume();
      res.on("end", () => {
        agent.destroy();
        resolve({ status: res.statusCode!, headers: res.headers });
      });
    }).on("error", reject);
  });

describe("variation: the sandbox settings of a fault and a variant, by name", () => {
  it("plays the fault named: an unknown id gets 404 (422 without it)", async () => {
    expect((await answerTo(`${await start({})}${FILES}/nope`)).status).toBe(422);
    expect((await answerTo(`${await start(variation({ fault: "unknown-id-404" }))}${FILES}/nope`)).status).toBe(404);
  });

  it("plays a fault and a variant together", async () => {
    const base = await start(variation({ fault: "unknown-id-404", variant: "download-as-json-string" }));
    expect((await answerTo(`${base}${FILES}/nope`)).status).toBe(404);
    expect((await answerTo(`${base}${FILES}/doc-1/download`)).headers["content-type"]).toMatch(/^application\/json/);
  });

  it("brings the keep-alive policy of a variant about connections (60 s advertised without it)", async () => {
    expect((await answerTo(`${await start({})}${FILES}/doc-1`)).headers["keep-alive"]).toBe("timeout=60");
    const settings = variation({ variant: "closes-idle-connections-at-once" });
    expect(settings.keepAlive).toEqual({ advertisedSeconds: 5, keptMs: 5 });
    expect((await answerTo(`${await start(settings)}${FILES}/doc-1`)).headers["keep-alive"]).toBe("timeout=5");
  });

  it("gives each sandbox started with the same settings wrappers of its own: a counting variant starts from zero in each", async () => {
    // compressed-answers encodes in turn, gzip first: a wrapper shared by both sandboxes would answer the second with deflate.
    const settings = variation({ variant: "compressed-answers" });
    for (let i = 0; i < 2; i++) {
      const answer = await answerTo(`${await start(settings)}${FILES}/doc-1`, { "accept-encoding": "gzip, deflate" });
      expect(answer.headers["content-encoding"]).toBe("gzip");
    }
  });

  it("names nothing: no wrapper, no keep-alive policy", () => {
    expect(variation({})).toEqual({});
  });

  it("refuses a name it does not know, in its own table, naming the known ones", () => {
    expect(() => variation({ fault: "nope" })).toThrow(/^Unknown fault "nope"; known: unknown-id-404, /);
    expect(() => variation({ variant: "unknown-id-404" })).toThrow(
      /^Unknown variant "unknown-id-404"; known: download-as-json-string, /,
    );
    expect(() => variation({ fault: "toString" })).toThrow(/^Unknown fault "toString"/);
  });
});
