import { authWords, NEAR_MISSES, type AuthMode } from "../inputs/keys.ts";
import { readFileState, readMetadata, restorableState, restoreFileState } from "./file-state.ts";
import { scenarioCheck, type Scenario } from "./types.ts";

/** The label an unauthorized update adds: distinctive, so that a read shows whether the update was applied. */
export const UNAUTHORIZED_LABEL = "contract-check-unauthorized-update";

/** auth_required: requests without the key, with a wrong one, or with a near miss of it, get 401 (strict on download, a warning elsewhere); an update is never applied without the key. */
export const authRequired = scenarioCheck(
  "auth_required",
  "Requests without a key, with a wrong key or with a near miss of the key (its last character changed, a suffix added, an empty token, its letters' case changed, a tab before it, another scheme, no scheme, twice) get 401 on the download (strict: the service requires the key there); without a key, with a wrong key or an empty token on get and update (a warning: the kit's assumption; decisions.md, D03). With write checks, each such update carries a real change and the file is read back with the key: an update applied without the key fails, whatever it answered, and the file is put back.",
  {
    operations: ["getFile", "updateFile", "getFileDownloadUrl"],
    async run(s) {
      const strict = s.operationId === "getFileDownloadUrl";
      // Prism only checks that a bearer token is present; a live server must compare the whole key. Every near miss is
      // sent where the service requires the key (the download); get and update, where it is the kit's assumption and
      // a warning, get the three that tell whether the key is checked at all, so that a read-only run leaves room in
      // its 100 requests for a gateway's 429s (docs/decisions.md, D03).
      const modes: Array<Exclude<AuthMode, "valid">> =
        s.target.mode === "mock"
          ? ["none"]
          : strict
            ? ["none", "wrong", ...NEAR_MISSES]
            : ["none", "wrong", "empty-token"];
      if (s.operationId === "updateFile" && s.target.mode === "live" && s.target.writeChecks)
        return unauthorizedWrites(s, modes);
      for (const auth of modes) {
        // An empty update where the run may not write (read-only, or the mock): should a server ignore auth, it still
        // changes nothing. Whether such an update is applied is shown only with write checks.
        const ex = await s.send({
          fileId: s.target.fileId,
          auth,
          ...(s.operationId === "updateFile" ? { json: {} } : {}),
        });
        if (ex.status === 401) continue;
        if (strict) s.fail(`a request ${authWords(auth)} got HTTP ${ex.status}, expected 401`, ex);
        s.warn(`${s.operationId} answered HTTP ${ex.status} to a request ${authWords(auth)} (expected 401)`);
      }
    },
  },
);

/**
 * Each unauthorized update adds UNAUTHORIZED_LABEL, and the file is read back with the key: one that shows it was
 * applied, whatever its status (a write without the key is a break wherever the description is silent on auth). A
 * status other than 401 to one that was not applied stays a warning. The file is put back whenever an update may
 * have been applied and not read back since.
 */
async function unauthorizedWrites(s: Scenario, modes: Array<Exclude<AuthMode, "valid">>): Promise<void> {
  const before = restorableState(s, await readMetadata(s));
  // Stryker disable next-line BooleanLiteral: equivalent; every mode sets it before its update, and there is always one
  let unsure = false;
  try {
    for (const auth of modes) {
      const json = { labels: [...before.labels, UNAUTHORIZED_LABEL] };
      unsure = true;
      const ex = await s.send({ fileId: s.target.fileId, auth, json });
      const after = await readFileState(s);
      if (after.labels.includes(UNAUTHORIZED_LABEL)) {
        s.fail(
          `an update ${authWords(auth)} (HTTP ${ex.status}) was applied: getFile with the key shows the label ${JSON.stringify(UNAUTHORIZED_LABEL)} it added`,
          ex,
        );
      }
      unsure = false;
      if (ex.status !== 401)
        s.warn(
          `updateFile answered HTTP ${ex.status} to a request ${authWords(auth)} (expected 401); the update was not applied`,
        );
    }
  } finally {
    if (unsure) await restoreFileState(s, before);
  }
}
