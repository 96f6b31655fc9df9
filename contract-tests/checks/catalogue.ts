import { authRequired } from "./auth-required.ts";
import { bodyWithinLimit } from "./body-within-limit.ts";
import { contentTypeConformance } from "./content-type-conformance.ts";
import { downloadUrlValid } from "./download-url-valid.ts";
import { fileLeftAsFound } from "./file-left-as-found.ts";
import { jsonWellFormed } from "./json-well-formed.ts";
import { maxResponseTime } from "./max-response-time.ts";
import { metadataSizeMatchesContent } from "./metadata-size-matches-content.ts";
import { metadataOfRequestedFile } from "./metadata-of-requested-file.ts";
import { negativeDataRejection } from "./negative-data-rejection.ts";
import { noSecretEcho } from "./no-secret-echo.ts";
import { notAServerError } from "./not-a-server-error.ts";
import { omittedFieldsKept } from "./omitted-fields-kept.ts";
import { positiveDataAcceptance } from "./positive-data-acceptance.ts";
import { responseHeadersConformance } from "./response-headers-conformance.ts";
import { responseSchemaConformance } from "./response-schema-conformance.ts";
import { statusCodeConformance } from "./status-code-conformance.ts";
import type { Check, ResponseCheck, ScenarioCheck } from "./types.ts";
import { unknownIdRejected } from "./unknown-id-rejected.ts";
import { updateChangesOnlyItsFields } from "./update-changes-only-its-fields.ts";
import { updatePersisted } from "./update-persisted.ts";

/** Every check of the suite, in the order they are listed and reported. */
export const catalogue = [
  notAServerError,
  statusCodeConformance,
  contentTypeConformance,
  jsonWellFormed,
  responseSchemaConformance,
  responseHeadersConformance,
  noSecretEcho,
  bodyWithinLimit,
  maxResponseTime,
  positiveDataAcceptance,
  negativeDataRejection,
  unknownIdRejected,
  authRequired,
  updatePersisted,
  updateChangesOnlyItsFields,
  omittedFieldsKept,
  fileLeftAsFound,
  downloadUrlValid,
  metadataSizeMatchesContent,
  metadataOfRequestedFile,
] as const satisfies readonly Check[];

/** The name of a check of the catalogue. */
export type CheckName = (typeof catalogue)[number]["name"];

/** The checks applied to every answer. */
export const responseChecks = (catalogue as readonly Check[]).filter((c): c is ResponseCheck => c.kind === "response");

/** The checks that send requests of their own. */
export const scenarioChecks = (catalogue as readonly Check[]).filter((c): c is ScenarioCheck => c.kind === "scenario");

/** The catalogue as `--list-checks` prints it. */
export function formatCatalogue(): string {
  const width = Math.max(...catalogue.map((c) => c.name.length));
  return catalogue
    .map((c) => {
      const scope = c.kind === "response" ? "every answer" : c.operations.join(", ");
      // Stryker disable next-line ConditionalExpression: equivalent; a response check has no requires
      return `${c.name.padEnd(width)}  ${c.description}\n${" ".repeat(width)}  (${scope}${c.kind === "scenario" && c.requires ? `; needs ${c.requires.join(" and ")}` : ""})`;
    })
    .join("\n");
}
