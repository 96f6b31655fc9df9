import { describe, expect, it } from "vitest";
import { jsonBody } from "./support/exchange.ts";
import { needsRealServer, send, target, unknownFileId } from "./support/context.ts";
import { warn } from "./support/warn.ts";

const operationId = "updateFile";
// Prism and many frameworks answer a body that is not JSON with 400, others with 422: both reject it.
const REJECTED = [400, 422] as const;

type Metadata = { labels?: string[]; publicUrl?: string };

async function readMetadata(): Promise<Metadata> {
  const ex = await send({ operationId: "getFile", fileId: target.fileId });
  expect(ex).toMatchOperation("getFile", 200);
  return jsonBody(ex) as Metadata;
}

describe(`${operationId}: PUT /studio/v1/library/files/{file_id}`, () => {
  describe("negative_data_rejection: a body that breaks the schema is rejected with 4xx and changes nothing", () => {
    const wrongBodies: Array<[string, unknown]> = [
      ["labels as a comma-separated string", { labels: "finance,q1" }],
      ["labels with non-string items", { labels: [1, 2] }],
      ["labels as an object", { labels: { 0: "a" } }],
      ["publicUrl as a number", { publicUrl: 42 }],
      ["a JSON array instead of an object", [{ labels: ["a"] }]],
      ["a JSON string instead of an object", "labels=a"],
    ];

    it.each(wrongBodies)("%s", async (_, json) => {
      const before = target.mode === "live" ? await readMetadata() : undefined;
      const ex = await send({ operationId, fileId: target.fileId, json });
      expect(ex).toMatchOperation(operationId, REJECTED);
      if (before) expect(await readMetadata(), "the file after a rejected update").toEqual(before);
    });

    it("a body that is not JSON at all", async () => {
      const before = target.mode === "live" ? await readMetadata() : undefined;
      const ex = await send({ operationId, fileId: target.fileId, rawBody: '{"labels": ["unterminated' });
      expect(ex).toMatchOperation(operationId, REJECTED);
      if (before) expect(await readMetadata(), "the file after a rejected update").toEqual(before);
    });
  });

  it("unknown_id_rejected: an update of an unknown file id is answered with 422", async (context) => {
    needsRealServer(context, "Prism has no files, so it cannot tell an unknown id");
    // Sent in read-only runs too: a correct server changes nothing for an id it does not have.
    const ex = await send({ operationId, fileId: unknownFileId(), json: { labels: ["contract-check"] } });
    expect(ex).toMatchOperation(operationId, 422);
  });

  it("auth_required (warning): an update without a key is rejected with 401", async () => {
    // An empty update: should a server ignore auth here, it still changes nothing.
    const ex = await send({ operationId, fileId: target.fileId, json: {}, auth: "none" });
    if (ex.status !== 401 && target.mode === "live") {
      warn(operationId, "auth_required", `answered ${ex.status} to an update without Authorization (expected 401)`);
      expect(ex).toMatchOperation(operationId);
      return;
    }
    expect(ex).toMatchOperation(operationId, 401);
  });

  describe("write checks (FILE_LIBRARY_WRITE_CHECKS=1): the file is changed and put back", () => {
    const skipUnlessWrites = (context: { skip: (note?: string) => void }) => {
      if (!target.writeChecks) context.skip("read-only run: set FILE_LIBRARY_WRITE_CHECKS=1 to check updates of the file");
    };

    it("positive_data_acceptance: a valid update is accepted with 200 and no body", async (context) => {
      skipUnlessWrites(context);
      const before = target.mode === "live" ? await readMetadata() : undefined;
      try {
        const ex = await send({ operationId, fileId: target.fileId, json: { labels: before?.labels ?? ["contract-check"] } });
        expect(ex).toMatchOperation(operationId, 200);
      } finally {
        if (before) await restore(before);
      }
    });

    it("update_persisted: labels replace the list, and an update that omits labels keeps them", async (context) => {
      skipUnlessWrites(context);
      needsRealServer(context, "Prism keeps no state between requests");
      const before = await readMetadata();
      const sent = ["contract-check-b", "contract-check-a"];
      try {
        expect(await send({ operationId, fileId: target.fileId, json: { labels: sent } })).toMatchOperation(operationId, 200);
        expect((await readMetadata()).labels, "labels after the update").toEqual(sent);
        expect(await send({ operationId, fileId: target.fileId, json: {} })).toMatchOperation(operationId, 200);
        expect((await readMetadata()).labels, "labels after an update that omits them").toEqual(sent);
      } finally {
        await restore(before);
      }
    });
  });
});

/** Puts the file's labels (and its publicUrl, when it had one) back as they were; warns when that fails. */
async function restore(before: Metadata): Promise<void> {
  const json: Metadata = { labels: before.labels ?? [] };
  if (before.publicUrl !== undefined) json.publicUrl = before.publicUrl;
  const ex = await send({ operationId, fileId: target.fileId, json });
  if (ex.status !== 200) {
    warn(operationId, "restore", `could not put file ${target.fileId} back (status ${ex.status}); its labels were ${JSON.stringify(before.labels)}`);
  }
}
