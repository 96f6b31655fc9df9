import { DOWNLOAD_ACCEPT, parseDownloadUrl } from "../../src/response-body.ts";
import { followUrl, jsonBody } from "../http/exchange.ts";
import { NoAnswerError } from "../http/no-answer.ts";
import { scenarioCheck } from "./types.ts";

/** metadata_size_matches_content: the metadata's size is the number of bytes the signed URL serves. */
export const metadataSizeMatchesContent = scenarioCheck(
  "metadata_size_matches_content",
  "The metadata's size is the file's size in bytes: the number of bytes its signed URL serves (decoded, if the content comes compressed). A URL that cannot be fetched from here, or content over the suite's read limit, leaves it unchecked, with a warning.",
  {
    operations: ["getFileDownloadUrl"],
    requires: ["state"],
    async run(s) {
      const metadata = await s.send({ operationId: "getFile", fileId: s.target.fileId });
      const size = (jsonBody(metadata) as { size?: unknown } | undefined)?.size;
      if (metadata.status !== 200 || typeof size !== "number")
        return s.skip(`the metadata has no size to compare (getFile answered ${metadata.status})`);
      const download = await s.send({ fileId: s.target.fileId, accept: DOWNLOAD_ACCEPT });
      const url = download.status === 200 ? parseDownloadUrl(download.text, download.mediaType) : undefined;
      // download_url_valid reports a download that is not one URL.
      if (!url?.ok) return s.skip("the download answered no URL to fetch");
      let content;
      try {
        content = await followUrl(s.context, url.value);
      } catch (error) {
        if (!(error instanceof NoAnswerError)) throw error;
        return s.warn(`could not fetch the signed URL from here, so the size ${size} is unchecked: ${error.message}`);
      }
      if (content.status < 200 || content.status >= 300)
        return s.warn(`the signed URL answered HTTP ${content.status}, so the size ${size} is unchecked`);
      if (content.cut !== undefined)
        return s.warn(
          `the content is over ${content.cut} bytes (FILE_LIBRARY_MAX_RESPONSE_BYTES), so the size ${size} is unchecked`,
        );
      if (content.bytes !== size)
        s.fail(`the metadata gives size ${size}, but the signed URL serves ${content.bytes} bytes`, metadata);
    },
  },
);
