import { describe, expect, it } from "vitest";
import { needsRealServer, send, target, unknownFileId } from "./support/context.ts";

const operationId = "getFileDownloadUrl";

describe(`${operationId}: GET /studio/v1/library/files/{file_id}/download`, () => {
  it("download_url_valid: the body is one absolute http(s) URL, as text/plain (200)", async () => {
    const ex = await send({ operationId, fileId: target.fileId, accept: "text/plain" });
    expect(ex).toMatchOperation(operationId, 200);
  });

  it("content_type_conformance: a client that prefers JSON gets a documented answer (text, or a JSON string)", async () => {
    const ex = await send({ operationId, fileId: target.fileId, accept: "application/json" });
    expect(ex).toMatchOperation(operationId, 200);
  });

  it("auth_required: a request without a key is rejected with 401", async () => {
    const ex = await send({ operationId, fileId: target.fileId, auth: "none" });
    expect(ex).toMatchOperation(operationId, 401);
  });

  it("auth_required: a request with a wrong key is rejected with 401", async (context) => {
    needsRealServer(context, "Prism accepts any bearer token");
    const ex = await send({ operationId, fileId: target.fileId, auth: "wrong" });
    expect(ex).toMatchOperation(operationId, 401);
  });

  it("unknown_id_rejected: an unknown file id is answered with 422, not 404", async (context) => {
    needsRealServer(context, "Prism has no files, so it cannot tell an unknown id");
    const ex = await send({ operationId, fileId: unknownFileId() });
    expect(ex).toMatchOperation(operationId, 422);
  });
});
