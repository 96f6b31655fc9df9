import { scenarioCheck } from "./types.ts";

/** auth_required: requests without a key, or with a wrong one, get 401 (strict on download, a warning elsewhere). */
export const authRequired = scenarioCheck("auth_required", "Requests without a key or with a wrong key get 401: strict on the download (the service requires the key there), a warning on get and update (the kit's assumption; decisions.md, Authentication).", {
  operations: ["getFile", "updateFile", "getFileDownloadUrl"],
  async run(s) {
    const strict = s.operationId === "getFileDownloadUrl";
    // Prism only checks that a bearer token is present.
    const modes = s.target.mode === "mock" ? (["none"] as const) : (["none", "wrong"] as const);
    for (const auth of modes) {
      // An empty update: should a server ignore auth, it still changes nothing.
      const ex = await s.send({ fileId: s.target.fileId, auth, ...(s.operationId === "updateFile" ? { json: {} } : {}) });
      if (ex.status === 401) continue;
      const what = auth === "none" ? "without Authorization" : "with a wrong key";
      if (strict) s.fail(`a request ${what} got HTTP ${ex.status}, expected 401`, ex);
      s.warn(`${s.operationId} answered HTTP ${ex.status} to a request ${what} (expected 401)`);
    }
  },
});
