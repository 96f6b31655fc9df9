import { isJsonMediaType } from "../support/openapi-validator.ts";
import type { ScenarioCheck } from "./types.ts";

/** The URL in a download body, unwrapped from a JSON string when needed, or why there is none. */
export function downloadUrlOf(text: string, mediaType: string): { url: URL } | { problem: string } {
  let candidate = text.trim();
  if (isJsonMediaType(mediaType)) {
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      return { problem: "the JSON body is not valid JSON" };
    }
    if (typeof value !== "string") return { problem: "the JSON body is not a string" };
    candidate = value.trim();
  }
  if (candidate === "" || /\s/.test(candidate)) return { problem: "the body is not one URL" };
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { problem: "the body is not an absolute URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { problem: `the URL uses ${url.protocol.slice(0, -1)}, not http(s)` };
  return { url };
}

/** download_url_valid: the body is one absolute http(s) URL, and (live) it downloads. */
export const downloadUrlValid: ScenarioCheck = {
  kind: "scenario",
  name: "download_url_valid",
  description: "The download body is one absolute http(s) URL (raw text, or a JSON string), and against a live server fetching it answers 2xx.",
  operations: ["getFileDownloadUrl"],
  async run(s) {
    const ex = await s.send({ fileId: s.target.fileId, accept: "text/plain, application/json;q=0.9" });
    if (ex.status !== 200) s.fail(`the download got HTTP ${ex.status}, expected 200`, ex);
    const found = downloadUrlOf(ex.text, ex.mediaType);
    if ("problem" in found) return s.fail(found.problem, ex);
    // Prism's example URL points nowhere; only a real server's URL can be fetched.
    if (s.target.mode === "mock") return;
    let status: number;
    try {
      const response = await fetch(found.url, { redirect: "follow", signal: AbortSignal.timeout(10_000) });
      status = response.status;
      await response.body?.cancel();
    } catch (error) {
      s.warn(`could not fetch the signed URL from here (${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message})`);
      return;
    }
    if (status < 200 || status >= 300) s.fail(`fetching the signed URL answered HTTP ${status}, expected 2xx`, ex);
  },
};
