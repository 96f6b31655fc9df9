import { correctBehaviour, metadataOf, type Behaviour } from "./behaviour.ts";

/** A named way for the sandbox to behave differently, for tests of the contract suite only. */
export interface Variation {
  description: string;
  changes: Partial<Behaviour>;
}

/**
 * Every fault (`--fault NAME`): each breaks the contract differently. Which checks of the contract suite must
 * catch each one is the suite's tests' claim, kept beside them (test/support/fault-expectations.ts).
 */
export const faults = {
  "unknown-id-404": {
    description: "an unknown id gets 404 instead of 422",
    changes: { unknownIdStatus: () => 404 },
  },
  "unknown-id-created-on-update": {
    description: "an update of an unknown id succeeds instead of getting 422",
    changes: { updateCreatesUnknown: true },
  },
  "awkward-id-404": {
    description: "an unknown id with characters other than letters, digits, - and _ gets 404, as from a router",
    changes: { unknownIdStatus: (fileId: string) => (/^[A-Za-z0-9_-]+$/.test(fileId) ? 422 : 404) },
  },
  "unknown-id-error-as-array": {
    description: "the 422 error body is a JSON array, not an object",
    changes: { unknownIdBody: (fileId: string) => [`no file ${fileId}`] },
  },
  "metadata-size-as-string": {
    description: "size is sent as a string",
    changes: { metadataBody: (file) => ({ ...metadataOf(file), size: String(file.size) }) },
  },
  "metadata-missing-labels": {
    description: "the required labels field is left out",
    changes: { metadataBody: (file) => ({ ...metadataOf(file), labels: undefined }) },
  },
  "metadata-local-time": {
    description: "created_at is in local time (+02:00), not UTC",
    changes: {
      metadataBody: (file) => ({
        ...metadataOf(file),
        created_at: new Date(Date.parse(file.created_at) + 2 * 3600_000).toISOString().replace(/\.\d+Z$|Z$/, "+02:00"),
      }),
    },
  },
  "update-answers-with-body": {
    description: "a successful update answers with the metadata instead of no body",
    changes: { updateAnswer: "metadata" },
  },
  "metadata-as-text-plain": {
    description: "the metadata is sent as text/plain",
    changes: { metadataContentType: "text/plain" },
  },
  "download-as-text-html": {
    description: "the download URL is sent as text/html",
    changes: { downloadAnswer: (url) => ({ body: url, contentType: "text/html" }) },
  },
  "request-id-with-spaces": {
    description: "x-request-id holds spaces, against its documented pattern",
    changes: { requestId: (generated) => `request ${generated}` },
  },
  "key-echoed-in-header": {
    description: "every answer echoes the bearer token in a debug header",
    changes: { extraHeaders: (apiKey) => ({ "x-debug-authorization": `Bearer ${apiKey}` }) },
  },
  "server-error-without-key-on-get": {
    description: "getFile without a key fails with 500 instead of 401",
    changes: { missingKeyStatus: (operationId) => (operationId === "getFile" ? 500 : 401) },
  },
  "metadata-wrong-id": {
    description: "the metadata names another id than the one requested",
    changes: { metadataBody: (file) => ({ ...metadataOf(file), id: `${file.id}-v2` }) },
  },
  "download-auth-ignored": {
    description: "the download answers without a key",
    changes: { downloadNeedsKey: false },
  },
  "any-bearer-passes": {
    description: "any bearer token passes, the key is never compared",
    changes: { anyBearerPasses: true },
  },
  "labels-not-persisted": {
    description: "an update answers 200 but stores nothing",
    changes: { labelUpdate: "drop" },
  },
  "labels-appended": {
    description: "labels are appended to the list instead of replacing it",
    changes: { labelUpdate: "append" },
  },
  "omitted-labels-cleared": {
    description: "an update that omits labels clears them",
    changes: { labelUpdate: "clear-when-omitted" },
  },
  "download-relative-url": {
    description: "the download body is a relative URL",
    changes: { downloadAnswer: (url) => ({ body: new URL(url).pathname + new URL(url).search, contentType: "text/plain" }) },
  },
  "download-url-in-object": {
    description: "the download body is a JSON object holding the URL",
    changes: { downloadAnswer: (url) => ({ body: JSON.stringify({ url }), contentType: "application/json" }) },
  },
  "download-url-broken-signature": {
    description: "the signed URL looks right but its signature does not verify, so it does not download",
    changes: { downloadAnswer: (url) => ({ body: url.replace(/signature=[0-9a-f]/, (m) => (m.endsWith("0") ? `${m.slice(0, -1)}1` : `${m.slice(0, -1)}0`)), contentType: "text/plain" }) },
  },
  "server-error-on-bad-json": {
    description: "a body that is not JSON gets a 500",
    changes: { malformedJsonStatus: 500 },
  },
  "wrong-types-accepted": {
    description: "update bodies of the wrong shape are accepted with 200 (and ignored)",
    changes: { validatesUpdateBody: false },
  },
  "non-ascii-labels-refused": {
    description: "valid labels that are empty or not printable ASCII are refused with 422",
    changes: { refusesLabel: (label: string) => !/^[\x20-\x7e]+$/.test(label) },
  },
  "slow-answers": {
    description: "every answer takes 120 ms (a warning when FILE_LIBRARY_MAX_RESPONSE_MS is lower)",
    changes: { delayMs: 120 },
  },
} satisfies Record<string, Variation>;

/** The name of a fault. */
export type FaultName = keyof typeof faults;

/** Ways to keep the contract that a strict-minded suite might wrongly fail (`--variant NAME`). */
export const legitimateVariants = {
  "download-as-json-string": {
    description: "the download URL comes as a JSON string under application/json",
    changes: { downloadAnswer: (url) => ({ body: JSON.stringify(url), contentType: "application/json" }) },
  },
  "metadata-extra-fields": {
    description: "the metadata carries fields the spec does not list",
    changes: { metadataBody: (file) => ({ ...metadataOf(file), checksum: "sha256:0f3c", owner: { id: "u_1" }, version: 3 }) },
  },
  "created-at-zero-offset": {
    description: "created_at ends in +00:00 instead of Z",
    changes: { metadataBody: (file) => ({ ...metadataOf(file), created_at: file.created_at.replace(/\.\d+Z$|Z$/, "+00:00") }) },
  },
  "error-body-detail-string": {
    description: "error bodies in FastAPI's shape, { detail: string }",
    changes: { unknownIdBody: () => ({ detail: "File not found" }) },
  },
  "update-answers-empty-object": {
    description: "a successful update answers {} as application/json",
    changes: { updateAnswer: "empty-object" },
  },
  "drops-kept-alive-connections": {
    description: "every third request on a kept-alive connection finds it closed, unanswered (a server retiring idle connections)",
    changes: { dropsReusedEvery: 3 },
  },
  "ignores-unknown-fields": {
    description: "update bodies may carry fields the schema does not know; they are ignored",
    changes: { ignoresUnknownFields: true },
  },
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
