import { correctBehaviour, metadataOf, type Behaviour } from "./behaviour.ts";

/** A named way for the sandbox to behave differently, for tests of the contract suite only. */
export interface Variation {
  description: string;
  changes: Partial<Behaviour>;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** One row of the tables below: what the variation does, in words, and the behaviour it changes. */
const variation = (description: string, changes: Partial<Behaviour>): Variation => ({ description, changes });

/**
 * Every fault (`--fault NAME`): each breaks the contract differently. Which checks of the contract suite must
 * catch each one is the suite's tests' claim, kept beside them (test/fixtures/fault-expectations.ts).
 */
export const faults = {
  "unknown-id-404": variation("an unknown id gets 404 instead of 422", { unknownIdStatus: () => 404 }),
  "unknown-id-created-on-update": variation("an update of an unknown id succeeds instead of getting 422", { updateCreatesUnknown: true }),
  "awkward-id-404": variation(
    "an unknown id with characters other than letters, digits, - and _ gets 404, as from a router",
    { unknownIdStatus: (fileId: string) => (/^[A-Za-z0-9_-]+$/.test(fileId) ? 422 : 404) },
  ),
  "unknown-id-error-as-array": variation(
    "the 422 error body is a JSON array, not an object",
    { unknownIdBody: (fileId: string) => [`no file ${fileId}`] },
  ),
  "metadata-size-as-string": variation("size is sent as a string", { metadataBody: (file) => ({ ...metadataOf(file), size: String(file.size) }) }),
  "metadata-missing-labels": variation(
    "the required labels field is left out",
    { metadataBody: (file) => ({ ...metadataOf(file), labels: undefined }) },
  ),
  "metadata-local-time": variation(
    "created_at is in local time (+02:00), not UTC",
    {
      metadataBody: (file) => ({
        ...metadataOf(file),
        created_at: new Date(Date.parse(file.created_at) + 2 * 3600_000).toISOString().replace(/\.\d+Z$|Z$/, "+02:00"),
      }),
    },
  ),
  "update-answers-with-body": variation("a successful update answers with the metadata instead of no body", { updateAnswer: "metadata" }),
  "metadata-as-text-plain": variation("the metadata is sent as text/plain", { metadataContentType: "text/plain" }),
  "download-as-text-html": variation(
    "the download URL is sent as text/html",
    { downloadAnswer: (url) => ({ body: url, contentType: "text/html" }) },
  ),
  "request-id-with-spaces": variation(
    "x-request-id holds spaces, against its documented pattern",
    { requestId: (generated) => `request ${generated}` },
  ),
  "key-echoed-in-header": variation(
    "every answer echoes the bearer token in a debug header",
    { extraHeaders: (apiKey) => ({ "x-debug-authorization": `Bearer ${apiKey}` }) },
  ),
  "server-error-without-key-on-get": variation(
    "getFile without a key fails with 500 instead of 401",
    { missingKeyStatus: (operationId) => (operationId === "getFile" ? 500 : 401) },
  ),
  "metadata-wrong-id": variation(
    "the metadata names another id than the one requested",
    { metadataBody: (file) => ({ ...metadataOf(file), id: `${file.id}-v2` }) },
  ),
  "download-auth-ignored": variation("the download answers without a key", { downloadNeedsKey: false }),
  "any-bearer-passes": variation("any bearer token passes, the key is never compared", { anyBearerPasses: true }),
  "labels-not-persisted": variation("an update answers 200 but stores nothing", { labelUpdate: "drop" }),
  "labels-appended": variation("labels are appended to the list instead of replacing it", { labelUpdate: "append" }),
  "omitted-labels-cleared": variation("an update that omits labels clears them", { labelUpdate: "clear-when-omitted" }),
  "download-relative-url": variation(
    "the download body is a relative URL",
    { downloadAnswer: (url) => ({ body: new URL(url).pathname + new URL(url).search, contentType: "text/plain" }) },
  ),
  "download-url-in-object": variation(
    "the download body is a JSON object holding the URL",
    { downloadAnswer: (url) => ({ body: JSON.stringify({ url }), contentType: "application/json" }) },
  ),
  "download-url-broken-signature": variation(
    "the signed URL looks right but its signature does not verify, so it does not download",
    { downloadAnswer: (url) => ({ body: url.replace(/signature=[0-9a-f]/, (m) => (m.endsWith("0") ? `${m.slice(0, -1)}1` : `${m.slice(0, -1)}0`)), contentType: "text/plain" }) },
  ),
  "server-error-on-bad-json": variation("a body that is not JSON gets a 500", { malformedJsonStatus: 500 }),
  "wrong-types-accepted": variation("update bodies of the wrong shape are accepted with 200 (and ignored)", { acceptsInvalidBody: () => true }),
  "labels-null-accepted": variation("an update with labels: null is accepted with 200 (and ignored)", {
    acceptsInvalidBody: (body) => isObject(body) && body.labels === null,
  }),
  "label-items-not-strings-accepted": variation("an update whose labels are not all strings is accepted with 200 (and ignored)", {
    acceptsInvalidBody: (body) => isObject(body) && Array.isArray(body.labels) && body.labels.some((label) => typeof label !== "string"),
  }),
  "public-url-number-accepted": variation("an update with a number as publicUrl is accepted with 200 (and ignored)", {
    acceptsInvalidBody: (body) => isObject(body) && typeof body.publicUrl === "number",
  }),
  "key-checked-in-part": variation("only the first half of the key is compared, as by a server that checks a key id but not its secret", {
    keyCompared: "first-half",
  }),
  "non-ascii-labels-refused": variation(
    "valid labels that are empty or not printable ASCII are refused with 422",
    { refusesLabel: (label: string) => !/^[\x20-\x7e]+$/.test(label) },
  ),
  "slow-answers": variation("every answer takes 120 ms (a warning when FILE_LIBRARY_MAX_RESPONSE_MS is lower)", { delayMs: 120 }),
} satisfies Record<string, Variation>;

/** The name of a fault. */
export type FaultName = keyof typeof faults;

/** Ways to keep the contract that a strict-minded suite might wrongly fail (`--variant NAME`). */
export const legitimateVariants = {
  "download-as-json-string": variation(
    "the download URL comes as a JSON string under application/json",
    { downloadAnswer: (url) => ({ body: JSON.stringify(url), contentType: "application/json" }) },
  ),
  "metadata-extra-fields": variation(
    "the metadata carries fields the spec does not list",
    { metadataBody: (file) => ({ ...metadataOf(file), checksum: "sha256:0f3c", owner: { id: "u_1" }, version: 3 }) },
  ),
  "created-at-zero-offset": variation(
    "created_at ends in +00:00 instead of Z",
    { metadataBody: (file) => ({ ...metadataOf(file), created_at: file.created_at.replace(/\.\d+Z$|Z$/, "+00:00") }) },
  ),
  "error-body-detail-string": variation(
    "error bodies in FastAPI's shape, { detail: string }",
    { unknownIdBody: () => ({ detail: "File not found" }) },
  ),
  "update-answers-empty-object": variation("a successful update answers {} as application/json", { updateAnswer: "empty-object" }),
  "rate-limited": variation("every seventh request gets 429 with Retry-After: 1, as behind a rate-limiting gateway", { rateLimitEvery: 7 }),
  "drops-kept-alive-connections": variation(
    "every third request on a kept-alive connection finds it closed, unanswered (a server retiring idle connections)",
    { dropsReusedEvery: 3 },
  ),
  "ignores-unknown-fields": variation("update bodies may carry fields the schema does not know; they are ignored", { ignoresUnknownFields: true }),
} satisfies Record<string, Variation>;

/** The behaviour of a sandbox started with a fault or a legitimate variant (or neither). */
export function behaviourFor(fault?: string, variant?: string): Behaviour {
  const pick = <T extends Record<string, Variation>>(table: T, name: string | undefined, flag: string): Partial<Behaviour> => {
    if (name === undefined) return {};
    if (!(name in table)) throw new Error(`Unknown ${flag} ${JSON.stringify(name)}; known: ${Object.keys(table).join(", ")}.`);
    return table[name as keyof T]!.changes;
  };
  return { ...correctBehaviour, ...pick(faults, fault, "fault"), ...pick(legitimateVariants, variant, "variant") };
}
