import { isJsonMediaType } from "../../lib/openapi/media-type.ts";
import { escapeControls } from "../../src/excerpt.ts";
import { repeatedMemberName } from "../../src/json-names.ts";
import { BOM, BOM_PROBLEM } from "../../src/response-body.ts";
import { jsonBody } from "../http/exchange.ts";
import { findings, responseCheck } from "./types.ts";

/**
 * json_well_formed: the bytes of a JSON answer mean one thing to every receiver. The suite reads them as the kit's
 * client does (src/response-body.ts), so that the two refuse the same answers.
 */
export const jsonWellFormed = responseCheck(
  "json_well_formed",
  "A JSON answer is UTF-8 with no byte-order mark before it (RFC 8259 §8.1) and names each member of an object once (§4): a receiver that guesses another encoding, or keeps the other of two values, reads another answer (decisions.md, D09).",
  (ex) => {
    // A cut body is body_within_limit's; its end may fall within a character.
    if (!isJsonMediaType(ex.mediaType) || ex.cut !== undefined) return findings();
    if (ex.invalidUtf8 !== undefined) return findings([`the body is not UTF-8: ${ex.invalidUtf8}`]);
    // TextDecoder drops a BOM by default, so that no receiver that decodes so ever sees one; JSON.parse fails on it.
    if (ex.text.startsWith(BOM)) return findings([BOM_PROBLEM]);
    // Text that is not JSON at all is response_schema_conformance's.
    if (jsonBody(ex) === undefined) return findings();
    const repeated = repeatedMemberName(ex.text);
    return findings(
      repeated === undefined
        ? []
        : [
            `the body names ${escapeControls(JSON.stringify(repeated))} twice in one object: JSON.parse keeps the last value, other parsers the first, strict ones fail`,
          ],
    );
  },
);
