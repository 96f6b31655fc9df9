/** What `--help` prints, for the published CLI and for `npm run contract` (which adds the mock and its steps). */
export function helpText({ usage, intro, mockFlag }: { usage: string; intro: string; mockFlag: boolean }): string {
  return `Usage: ${usage}

${intro}

Flags:
  --base-url URL          check a live server (same as FILE_LIBRARY_BASE_URL)
  --file-id ID            id of an existing file on that server (same as FILE_LIBRARY_FILE_ID)
${mockFlag ? "  --mock                  check the Prism mock even when FILE_LIBRARY_BASE_URL is set\n" : ""}\
  --list-checks           print the check catalogue and exit
  --checks a,b            run only these checks (same as FILE_LIBRARY_CHECKS)
  --exclude-checks c      run every check but these (same as FILE_LIBRARY_EXCLUDE_CHECKS)
  --seed N                replay the generated inputs of an earlier run (same as FILE_LIBRARY_SEED)
  --shuffle               run the checks in an order drawn from the seed (same as FILE_LIBRARY_SHUFFLE=1);
                          a verdict must not depend on it, and --seed replays the order too
  --report-dir DIR        folder of the reports (same as FILE_LIBRARY_REPORT_DIR)
  --rate-limit N/s        send at most N requests a second (or N/m, N/h; same as FILE_LIBRARY_RATE_LIMIT)
  -v, --version           print the version of the contract suite and exit
  -h, --help              show this text

Environment:
  FILE_LIBRARY_BASE_URL      base URL of a live server (live mode)
  FILE_LIBRARY_API_KEY       its API key; only ever read from the environment, never printed
  FILE_LIBRARY_FILE_ID       id of an existing file on it
  FILE_LIBRARY_WRITE_CHECKS  1 to also check updates (the file is changed, then put back)
  FILE_LIBRARY_REPORT_DIR    folder of the reports (default: reports): contract-junit.xml,
                             contract-summary.json, contract-coverage.json and .md
  FILE_LIBRARY_FUZZ_RUNS     generated inputs per generated check (default 5)
  FILE_LIBRARY_MAX_REQUESTS  request budget of a run (default: 100 read-only live, 300 with write checks)
  FILE_LIBRARY_MAX_RESPONSE_MS  answers slower than this warn (default 5000)
  FILE_LIBRARY_MAX_RESPONSE_BYTES  the most bytes read of one answer; a longer body fails body_within_limit (default 1048576)
  FILE_LIBRARY_REQUEST_TIMEOUT_MS  a request of a check fails after this long (default 10000)
  FILE_LIBRARY_RATE_LIMIT    pace of the requests, such as 10/s or 300/m (default: no pacing)
  FILE_LIBRARY_MAX_RETRY_WAIT_MS  a 429 is waited out and sent again, up to this long a wait (default 10000)
  FILE_LIBRARY_MAX_TOTAL_WAIT_MS  and up to this long in all per run (default 60000); past either the
                             run stops with exit 2: the server rate-limited it, which is no contract failure
  FILE_LIBRARY_SHUFFLE       1 to run the checks in an order drawn from the seed (same as --shuffle)
  FILE_LIBRARY_SPEC          bundled spec (JSON) to check against (default: ${mockFlag ? "dist/openapi.json" : "the one shipped with the suite"})
  GITHUB_STEP_SUMMARY        when set, the Markdown coverage is appended to it

Exit codes: 0 every check passed, 1 a check${mockFlag ? " or step" : ""} failed, 2 the run could not start, or could
not finish: the server rate-limited it past the caps, or the suite failed outside every check.

What each check holds a server to where the service description is silent, and why: ${mockFlag ? "docs/decisions.md" : "dist/decisions.md in this package (docs/decisions.md in the kit's repository)"}.`;
}
