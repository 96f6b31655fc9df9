import { authWords, NEAR_MISSES, type AuthMode } from "../inputs/keys.ts";
import { scenarioCheck } from "./types.ts";

/** auth_required: requests without the key, with a wrong one, or with a near miss of it, get 401 (strict on download, a warning elsewhere). */
export const authRequired = scenarioCheck(
  "auth_required",
  "Requests without a key, with a wrong key or with a near miss of the key (its last character changed, a suffix added, an empty token, its letters' case changed, a tab before it, another scheme, no scheme, twice) get 401 on the download (strict: the service requires the key there); without a key, with a wrong key or an empty token on get and update (a warning: the kit's assumption; decisions.md, Authentication).",
  {
    operations: ["getFile", "updateFile", "getFileDownloadUrl"],
    async run(s) {
      const strict = s.operationId === "getFileDownloadUrl";
      // Prism only checks that a bearer token is present; a live server must compare the whole key. Every near miss is
      // sent where the service requires the key (the download); get and update, where it is the kit's assumption and
      // a warning, get the three that tell whether the key is checked at all, so that a read-only run leaves room in
      // its 100 requests for a gateway's 429s (docs/decisions.md, Authentication).
      const modes: Array<Exclude<AuthMode, "valid">> = s.target.mode === "mock" ? ["none"] : strict ? ["none", "wrong", ...NEAR_MISSES] : ["none", "wrong", "empty-token"];
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
