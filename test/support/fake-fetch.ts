import type { Fetch } from "../../src/index.ts";

/** One request the fake fetch received, with its body read. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A fetch that records requests and answers each with the next scripted response (the last one repeats). */
export function fakeFetch(...responses: Array<Response | (() => Response | Promise<Response>)>) {
  const seen: SeenRequest[] = [];
  const fetch: Fetch = async (input: Request) => {
    seen.push({ method: input.method, url: input.url, headers: input.headers, body: await input.text() });
    const next = responses[Math.min(seen.length - 1, responses.length - 1)];
    if (next === undefined) throw new Error("fakeFetch: no response scripted");
    return typeof next === "function" ? next() : next.clone();
  };
  return { fetch, seen };
}

/** A JSON response with the given status. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** A text response with the given status and content type. */
export const text = (body: string, status = 200, contentType = "text/plain"): Response =>
  new Response(body, { status, headers: { "content-type": contentType } });

/** A metadata body that matches the spec. */
export const sampleMetadata = {
  id: "file_1",
  name: "report.pdf",
  size: 42,
  created_at: "2026-03-14T09:26:53Z",
  labels: ["finance"],
};

export const BASE_URL = "https://files.example.test";
export const API_KEY = "sk-test-0123456789abcdef";
