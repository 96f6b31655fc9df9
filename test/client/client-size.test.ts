import { describe, expect, it } from "vitest";
import { clientBundleSizes } from "../../scripts/lib/bundle-size.ts";

// Measured at 6,534 bytes (2026-11-27), 187 under 6,721 with no behaviour a test reads lost: the middleware path hands its answer to the direct path's reading, one message for a timeout and a connection failure (the CORS hint in its sentence), one range check for the numeric options, invalidUtf8 by decoding and encoding back (a 2xx body decoded once), fewer download-URL messages.
// 6,721 (2026-11-27): 8 more than 6,713 to keep the key out of messages and logs when a caller passes
// it as a file id (the path is shown redacted, also percent-encoded; test/client/secrets.test.ts). 6,713, down from 7,015 with no behaviour a test reads lost (issue 55, item 6): less code
// for the same work (an HTTP-date's obsolete forms rewritten as the IMF-fixdate they name, redaction by one pattern, one
// Blob joining a body's chunks, the retry's wait ended by an abort, the middleware path's cut kept in the attempt, a flag
// for middleware on raw) and fewer words (one message for a blank, "." or ".." id; no hint after a 429 or a 5xx). The
// ceiling of 6,451 (6.3 kB) is not reached: docs/benchmarks.md says what is left. 7,015 (2026-11-27): 6,786 before getFile refused metadata without the spec's required members
// (229 bytes, src/metadata-members.ts and MetadataShapeError: a server in the shape of the service's own OpenAPI
// document got an object whose typed id, size and created_at were undefined; docs/decisions.md, D44).
// 6,786 (2026-11-26): 6,678 before a base URL without a scheme got "did you mean http://…?" (108
// bytes, a newcomer's first mistake); 6,584 before the client refused JSON that starts with a byte-order mark, as
// json_well_formed does (94 bytes; RFC 8259 8.1); 6,474 before redaction found a key that could be a word ("test", "k") only as
// a word of its own (110 bytes), where it garbled messages ("Chec[REDACTED] the base URL"); 6,245 before Retry-After was read as RFC 9110 defines it (digits, or an HTTP-date
// in any of its three forms, src/http-date.ts: 229 bytes), where Date.parse read "-5" as a date in 2001 and the retries
// went out at once (docs/benchmarks.md). 6,256 before one lossy decoder and one cut of a long text served the client
// everywhere (they were written out three and two times); 6,252 before redaction skipped the secrets a text does not hold (the contract
// proxy redacts every answer of real traffic); 5,851 before the client refused JSON that names a member twice and said
// where a body stops being UTF-8, as the contract suite's json_well_formed does (401 bytes; see
// docs/decisions.md, D09); 5,767 before the download URL's control characters were refused and every
// quoted body escaped (84 bytes, docs/decisions.md, D11), 5,600 the round before, 4,936 before the
// guards against hostile answers.
// This round took out the body cap's stream (its bytes and its cost per call) and shortened the messages, and added
// the request path that skips openapi-fetch's per-call work, and status classes that the factory really makes (so
// that their documented properties work): docs/benchmarks.md says where the bytes are. The goal is
// 2,560; this ceiling stops the client from growing while it is above it: lower it with every byte won, never
// raise it without saying why in docs/benchmarks.md.
const CEILING_OVER_OPENAPI_FETCH = 6_534;

describe("what an app pays for the client, over openapi-fetch (esbuild, minified, gzipped)", () => {
  it(`is at most ${CEILING_OVER_OPENAPI_FETCH} bytes for createFileLibraryClient and one error class`, {
    timeout: 30_000,
  }, async () => {
    const { bare, ours } = await clientBundleSizes();
    expect(ours.gzip - bare.gzip).toBeLessThanOrEqual(CEILING_OVER_OPENAPI_FETCH);
    // The bundle holds the client, not only openapi-fetch: a broken entry would pass the size check by shrinking.
    expect(ours.gzip - bare.gzip).toBeGreaterThan(1_000);
  });
});
