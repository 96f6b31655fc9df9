import { describe, expect, it } from "vitest";
import {
  catalogue,
  formatCatalogue,
  responseChecks,
  scenarioChecks,
} from "../../../contract-tests/checks/catalogue.ts";

describe("the catalogue", () => {
  it("splits the checks into those of every answer and those that send requests, in catalogue order", () => {
    expect(responseChecks.map((c) => c.name)).toEqual([
      "not_a_server_error",
      "status_code_conformance",
      "content_type_conformance",
      "json_well_formed",
      "response_schema_conformance",
      "response_headers_conformance",
      "no_secret_echo",
      "body_within_limit",
      "max_response_time",
    ]);
    expect(scenarioChecks.map((c) => c.name)).toEqual([
      "positive_data_acceptance",
      "negative_data_rejection",
      "unknown_id_rejected",
      "auth_required",
      "update_persisted",
      "update_changes_only_its_fields",
      "omitted_fields_kept",
      "file_left_as_found",
      "download_url_valid",
      "metadata_size_matches_content",
      "metadata_of_requested_file",
    ]);
  });

  it("says where each check runs and what it needs, as --list-checks prints it", () => {
    const lines = formatCatalogue().split("\n");
    const scopes = Object.fromEntries(catalogue.map((c, i) => [c.name, lines[2 * i + 1]!.trim()]));
    expect(scopes).toEqual({
      not_a_server_error: "(every answer)",
      status_code_conformance: "(every answer)",
      content_type_conformance: "(every answer)",
      json_well_formed: "(every answer)",
      response_schema_conformance: "(every answer)",
      response_headers_conformance: "(every answer)",
      no_secret_echo: "(every answer)",
      body_within_limit: "(every answer)",
      max_response_time: "(every answer)",
      positive_data_acceptance: "(getFile, updateFile, getFileDownloadUrl)",
      negative_data_rejection: "(updateFile)",
      unknown_id_rejected: "(getFile, updateFile, getFileDownloadUrl; needs state)",
      auth_required: "(getFile, updateFile, getFileDownloadUrl)",
      update_persisted: "(updateFile; needs state and writes)",
      update_changes_only_its_fields: "(updateFile; needs state and writes)",
      omitted_fields_kept: "(updateFile; needs state and writes)",
      file_left_as_found: "(updateFile; needs state and writes)",
      download_url_valid: "(getFileDownloadUrl)",
      metadata_size_matches_content: "(getFileDownloadUrl; needs state)",
      metadata_of_requested_file: "(getFile; needs state)",
    });
  });

  it("says what each check verifies, in a sentence", () => {
    for (const check of catalogue) expect(check.description, check.name).toMatch(/^[A-Z][^\n]{30,}\.$/);
  });

  it("lists every check for --list-checks: its name padded to the longest, what it checks, and where it runs and what it needs", () => {
    const lines = formatCatalogue().split("\n");
    expect(lines).toHaveLength(2 * catalogue.length);
    const indent = " ".repeat("update_changes_only_its_fields".length);
    expect(lines[0]).toBe(
      `not_a_server_error${" ".repeat(12)}  No request, valid or not, makes the server answer 5xx, documented or not (decisions.md, D15).`,
    );
    expect(lines[1]).toBe(`${indent}  (every answer)`);
    const after = (name: string) => lines[lines.findIndex((line) => line.startsWith(`${name} `)) + 1];
    expect(after("negative_data_rejection")).toBe(`${indent}  (updateFile)`);
    expect(after("unknown_id_rejected")).toBe(`${indent}  (getFile, updateFile, getFileDownloadUrl; needs state)`);
    expect(after("update_persisted")).toBe(`${indent}  (updateFile; needs state and writes)`);
    expect(lines.filter((line) => line.startsWith("update_changes_only_its_fields  After every update"))).toHaveLength(
      1,
    );
  });
});
