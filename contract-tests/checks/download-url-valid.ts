import { DOWNLOAD_ACCEPT, parseDownloadUrl } from "../../src/response-body.ts";
import { followUrl } from "../http/exchange.ts";
import { NoAnswerError } from "../http/no-answer.ts";
import type { Exchange } from "../http/exchange.ts";
import { scenarioCheck } from "./types.ts";

/** What is wrong with a download's answer as the kit reads it (text, or a JSON string; one absolute http(s) URL), if anything. */
export function downloadAnswerProblem(ex: Exchange): { problem: string } | { url: string } {
  if (ex.status !== 200) return { problem: `the download got HTTP ${ex.status}, expected 200` };
  // The client's own reading of the body: the rules the kit promises apps.
  const found = parseDownloadUrl(ex.text, ex.mediaType);
  return found.ok ? { url: found.value } : { problem: found.problem };
}

/** download_url_valid: the body is one absolute http(s) URL, and (live) it downloads. */
export const downloadUrlValid = scenarioCheck(
  "download_url_valid",
  "The download body is one absolute http(s) URL (raw text, or a JSON string: decisions.md, D11), and against a live server fetching it answers 2xx.",
  {
    operations: ["getFileDownloadUrl"],
    async run(s) {
      const ex = await s.send({ fileId: s.target.fileId, accept: DOWNLOAD_ACCEPT });
      const found = downloadAnswerProblem(ex);
      if ("problem" in found) return s.fail(found.problem, ex);
      // Prism's example URL points nowhere; only a real server's URL can be fetched.
      if (s.target.mode === "mock") return;
      let status: number;
      try {
        ({ status } = await followUrl(s.context, found.url));
      } catch (error) {
        if (!(error instanceof NoAnswerError)) throw error;
        // The URL may point at storage this machine cannot reach (a private bucket, a CDN behind a VPN).
        s.warn(`could not fetch the signed URL from here: ${error.message}`);
        return;
      }
      if (status < 200 || status >= 300) s.fail(`fetching the signed URL answered HTTP ${status}, expected 2xx`, ex);
    },
  },
);
