import type { CheckName } from "../../contract-tests/checks/catalogue.ts";
import type { FaultName } from "../../sandbox/faults.ts";

/** Which checks a fault trips: the one that must catch it, and any other its break also shows in. */
export interface FaultExpectation {
  caughtBy: CheckName;
  alsoCaughtBy?: readonly CheckName[];
}

/**
 * For each sandbox fault, exactly the checks that fail against it (the same for every seed). A fault with no
 * `alsoCaughtBy` is caught by its check alone: every check has at least one such fault.
 */
export const faultExpectations = {
  "unknown-id-404": { caughtBy: "unknown_id_rejected", alsoCaughtBy: ["status_code_conformance"] },
  "unknown-id-created-on-update": { caughtBy: "unknown_id_rejected" },
  "awkward-id-404": { caughtBy: "status_code_conformance" },
  "unknown-id-error-as-array": { caughtBy: "response_schema_conformance" },
  "metadata-size-as-string": { caughtBy: "response_schema_conformance" },
  // Without labels in the metadata, the checks that read the file back cannot either.
  "metadata-missing-labels": {
    caughtBy: "response_schema_conformance",
    alsoCaughtBy: ["negative_data_rejection", "omitted_fields_kept", "positive_data_acceptance", "update_persisted"],
  },
  "metadata-local-time": { caughtBy: "response_schema_conformance" },
  "update-answers-with-body": { caughtBy: "response_schema_conformance" },
  "metadata-as-text-plain": { caughtBy: "content_type_conformance" },
  "download-as-text-html": { caughtBy: "content_type_conformance" },
  "request-id-with-spaces": { caughtBy: "response_headers_conformance" },
  "key-echoed-in-header": { caughtBy: "no_secret_echo" },
  "server-error-without-key-on-get": { caughtBy: "not_a_server_error" },
  "metadata-wrong-id": { caughtBy: "metadata_of_requested_file" },
  "download-auth-ignored": { caughtBy: "auth_required" },
  "any-bearer-passes": { caughtBy: "auth_required" },
  "labels-not-persisted": { caughtBy: "update_persisted" },
  "labels-appended": { caughtBy: "update_persisted" },
  "omitted-labels-cleared": { caughtBy: "omitted_fields_kept" },
  "download-relative-url": { caughtBy: "download_url_valid", alsoCaughtBy: ["response_schema_conformance"] },
  "download-url-in-object": { caughtBy: "download_url_valid", alsoCaughtBy: ["response_schema_conformance"] },
  "download-url-broken-signature": { caughtBy: "download_url_valid" },
  "server-error-on-bad-json": { caughtBy: "negative_data_rejection", alsoCaughtBy: ["not_a_server_error"] },
  "wrong-types-accepted": { caughtBy: "negative_data_rejection" },
  "non-ascii-labels-refused": { caughtBy: "positive_data_acceptance" },
  // max_response_time only warns: it is caught as a warning, with no check failing.
  "slow-answers": { caughtBy: "max_response_time" },
} satisfies Record<FaultName, FaultExpectation>;

/** Every check the fault must make fail, sorted (none for a check that only warns). */
export function expectedFailures(expectation: FaultExpectation): CheckName[] {
  const all = [expectation.caughtBy, ...(expectation.alsoCaughtBy ?? [])];
  return all.filter((check) => check !== "max_response_time").sort();
}
