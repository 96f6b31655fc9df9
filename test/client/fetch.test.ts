import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchOnce, globalFetch, type Fetch } from "../../src/fetch.ts";

afterEach(() => vi.unstubAllGlobals());

describe("globalFetch", () => {
  it("calls the global fetch as it is at the call, not as it was when imported", async () => {
    const seen: unknown[] = [];
    vi.stubGlobal("fetch", async (input: unknown, init: unknown) => (seen.push([input, init]), new Response("late")));
    const request = new Request("https://x.example/a");
    expect(await (await globalFetch(request, { method: "GET" })).text()).toBe("late");
    expect(seen).toEqual([[request, { method: "GET" }]]);
  });
});

describe("fetchOnce", () => {
  it("gives the global fetch the URL and the init as they are", async () => {
    const seen: unknown[] = [];
    vi.stubGlobal("fetch", async (input: unknown, init: unknown) => (seen.push([input, init]), new Response("ok")));
    const init = { method: "PUT", body: "{}", headers: { a: "b" } };
    await fetchOnce(globalFetch, "https://x.example/a", init);
    expect(seen).toEqual([["https://x.example/a", init]]);
  });

  it("gives an injected fetch one Request with the URL, method, headers and body", async () => {
    const seen: Request[] = [];
    const injected: Fetch = async (input, init) => {
      expect(init).toBeUndefined();
      seen.push(input);
      return new Response("ok");
    };
    await fetchOnce(injected, "https://x.example/a", { method: "PUT", body: '{"a":1}', headers: { "x-h": "1" } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(Request);
    expect([seen[0]!.url, seen[0]!.method, seen[0]!.headers.get("x-h"), await seen[0]!.text()]).toEqual([
      "https://x.example/a",
      "PUT",
      "1",
      '{"a":1}',
    ]);
  });
});
