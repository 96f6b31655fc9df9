import { documentedAnswerCheck, findings } from "./types.ts";

/** response_headers_conformance: documented headers are present when required, and match their schemas. */
export const responseHeadersConformance = documentedAnswerCheck(
  "response_headers_conformance",
  "Headers the spec documents for the answer are present when required and match their schemas.",
  (ex, spec, statusKey) => {
    const failures: string[] = [];
    for (const header of spec.responseHeaders(ex.operationId, statusKey)) {
      const value = ex.headers.get(header.name);
      if (value === null) {
        if (header.required) failures.push(`the required header ${header.name} is missing`);
        continue;
      }
      const result = header.validate(value);
      if (!result.valid)
        failures.push(
          // Stryker disable next-line Regex: equivalent; Ajv's words for a header's value start with "body " and hold it nowhere else
          `header ${header.name}: ${JSON.stringify(value)} ${result.problems.map((p) => p.replace(/^body /, "")).join("; ")}`,
        );
    }
    return findings(failures);
  },
);
