import { correctBehaviour, metadataOf, type Behaviour } from "./behaviour.ts";

/** A named way to break the contract, for proving that the contract suite catches it. Tests only. */
export interface Fault {
  description: string;
  /** The check of the contract suite that must fail against it. */
  caughtBy: string;
  changes: Partial<Behaviour>;
}

/** Every fault the sandbox can be started with (`--fault NAME`); each breaks the contract differently. */
export const faults = {
  "unknown-id-404": {
    description: "an unknown id gets 404 instead of 422",
    caughtBy: "unknown_id_rejected",
    changes: { unknownIdStatus: 404 },
  },
  "unknown-id-error-as-array": {
    description: "the 422 error body is a JSON array, not an object",
    caughtBy: "unknown_id_rejected",
    changes: { unknownIdBody: (fileId: string) => [`no file ${fileId}`] },
  },
  "metadata-size-as-string": {
    description: "size is sent as a string",
    caughtBy: "response_schema_conformance",
    changes: { metadataBody: (file) => ({ ...metadataOf(file), size: String(file.size) }) },
  },
  "metadata-missing-labels": {
    description: "the required labels field is left out",
    caughtBy: "response_schema_conformance",
    changes: { metadataBody: (file) => ({ ...metadataOf(file), labels: undefined }) },
  },
  "metadata-local-time": {
    description: "created_at is in local time (+02:00), not UTC",
    caughtBy: "response_schema_conformance",
    changes: {
      metadataBody: (file) => ({
        ...metadataOf(file),
        created_at: new Date(Date.parse(file.created_at) + 2 * 3600_000).toISOString().replace(/\.\d+Z$|Z$/, "+02:00"),
      }),
    },
  },
  "metadata-as-text-plain": {
    description: "the metadata is sent as text/plain",
    caughtBy: "response_schema_conformance",
    changes: { metadataContentType: "text/plain" },
  },
  "metadata-wrong-id": {
    description: "the metadata names another id than the one requested",
    caughtBy: "metadata_of_requested_file",
    changes: { metadataBody: (file) => ({ ...metadataOf(file), id: `${file.id}-v2` }) },
  },
  "download-auth-ignored": {
    description: "the download answers without a key",
    caughtBy: "auth_required",
    changes: { downloadNeedsKey: false },
  },
  "any-bearer-passes": {
    description: "any bearer token passes, the key is never compared",
    caughtBy: "auth_required",
    changes: { anyBearerPasses: true },
  },
  "labels-not-persisted": {
    description: "an update answers 200 but stores nothing",
    caughtBy: "update_persisted",
    changes: { labelUpdate: "drop" },
  },
  "labels-appended": {
    description: "labels are appended to the list instead of replacing it",
    caughtBy: "update_persisted",
    changes: { labelUpdate: "append" },
  },
  "omitted-labels-cleared": {
    description: "an update that omits labels clears them",
    caughtBy: "update_persisted",
    changes: { labelUpdate: "clear-when-omitted" },
  },
  "download-relative-url": {
    description: "the download body is a relative URL",
    caughtBy: "download_url_valid",
    changes: { downloadAnswer: (url) => ({ body: new URL(url).pathname + new URL(url).search, contentType: "text/plain" }) },
  },
  "download-url-in-object": {
    description: "the download body is a JSON object holding the URL",
    caughtBy: "download_url_valid",
    changes: { downloadAnswer: (url) => ({ body: JSON.stringify({ url }), contentType: "application/json" }) },
  },
  "server-error-on-bad-json": {
    description: "a body that is not JSON gets a 500",
    caughtBy: "negative_data_rejection",
    changes: { malformedJsonStatus: 500 },
  },
  "wrong-types-accepted": {
    description: "update bodies of the wrong shape are accepted with 200",
    caughtBy: "negative_data_rejection",
    changes: { validatesUpdateBody: false },
  },
  "update-answers-with-body": {
    description: "a successful update answers with the metadata instead of no body",
    caughtBy: "positive_data_acceptance",
    changes: { updateAnswersWithBody: true },
  },
} satisfies Record<string, Fault>;

/** A fault's name. */
export type FaultName = keyof typeof faults;

/** The behaviour of a sandbox started with this fault (or the correct one). */
export function behaviourFor(fault: string | undefined): Behaviour {
  if (fault === undefined) return correctBehaviour;
  if (!(fault in faults)) {
    throw new Error(`Unknown fault ${JSON.stringify(fault)}; known faults: ${Object.keys(faults).join(", ")}.`);
  }
  return { ...correctBehaviour, ...faults[fault as FaultName].changes };
}
