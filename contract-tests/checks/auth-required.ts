import { authWords, NEAR_MISSES, type AuthMode } from "../inputs/keys.ts";
import { scenarioCheck } from "./types.ts";

/** auth_required: requests without the key, with a wrong one, or with a near miss of it, get 401 (strict on download, a warning elsewhere). */
export const authRequired = scenarioCheck(
  "auth_required",
  "Requests without a key, with a wrong key or with a near miss of the key (its last character changed, a suffix added, an empty token, its letters' case changed, a tab before it, another scheme, no scheme, twice) get 401: strict on the download (the service requires the key there), a warning on get and update (the kit's assumption; decisions.md, Authentication).",
  {
    operations: ["getFile", "updateFile", "getFileDownloadUrl"],
    async run(s) {
      const strict = s.operationId === "getFileDownloadUrl";
      // Prism only checks that a bearer token is present; a live server must compare the whole key.
      const modes: Array<Exclude<AuthMode, "valid">> = s.target.mode === "mock" ? ["none"] : ["none", "wrong", ...NEAR_MISSES];
      for (const auth of modes) {
        // An empty update: should a server ignore auth, it still changes nothing.
        const ex = await s.send({ fileId: s.target.fileId, auth, ...(s.operationId === "updateFile" ? { json: {} } : {}) });
        if (ex.status === 401) continue;
        if (strict) s.fail(`a request ${authWords(auth)} got HTTP ${ex.status}, expected 401`, ex);
        s.warn(`${s.operationId} answered HTTP ${ex.status} to a request ${authWords(auth)} (expected 401)`);
      }
    },
  },
);
