import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCommand } from "../../lib/process.ts";
import { bin, fromRoot, repoRoot } from "../../scripts/lib/paths.ts";

const depcruise = (cwd: string, folders: string[]) =>
  runCommand(bin("depcruise"), ["--config", ".dependency-cruiser.cjs", ...folders], { cwd });

// A tree of the kit's shape, each file making one import; the kit's own rules judge it.
const FILES: Record<string, string> = {
  "src/client.ts": `import { a } from "../lib/shared.ts";\nimport { readFileSync } from "node:fs";\nexport const c = [a, readFileSync];\n`,
  "src/errors.ts": `export const e = 1;\n`,
  "src/generated/schema.d.ts": `export interface operations { getFile: unknown }\n`,
  "lib/shared.ts": `import { s } from "../sandbox/server.ts";\nexport const a = s;\n`,
  "sandbox/server.ts": `import type { operations } from "../src/generated/schema.d.ts";\nimport { e } from "../src/errors.ts";\nimport { check } from "../contract-tests/check.ts";\nexport const s: keyof operations | number = e + check;\n`,
  "contract-tests/check.ts": `import type { Thing } from "../scripts/tool.ts";\nimport { helper } from "../test/helper.ts";\nexport const check: Thing = helper;\n`,
  "scripts/tool.ts": `import { s } from "../sandbox/server.ts";\nexport type Thing = number;\nexport const t = s;\n`,
  "test/helper.ts": `export const helper = 1;\n`,
  "sandbox/core/service.ts": `import { createHash } from "node:crypto";\nimport { store } from "../sqlite-storage.ts";\nimport { e } from "./plain.ts";\nexport const service = [createHash, store, e];\n`,
  "sandbox/core/plain.ts": `export const e = 1;\n`,
  "sandbox/sqlite-storage.ts": `import { e } from "./core/plain.ts";\nexport const store = e;\n`,
  // The testing entry wraps the sandbox (it may import the core); the bin must not import it.
  "sandbox/testing/faults.ts": `import { e } from "../core/plain.ts";\nexport const fault = e;\n`,
  "sandbox/main.ts": `import { fault } from "./testing/faults.ts";\nexport const main = fault;\n`,
  // A circle of two modules, and one of three (the suite's, as it was before its run context).
  "src/fetch.ts": `import type { O } from "./options.ts";\nexport type F = O;\n`,
  "src/options.ts": `import type { F } from "./fetch.ts";\nexport type O = F | 1;\n`,
  "contract-tests/checks/types.ts": `import type { X } from "../http/exchange.ts";\nexport type T = X;\n`,
  "contract-tests/http/exchange.ts": `import type { C } from "./curl.ts";\nexport type X = C;\n`,
  "contract-tests/http/curl.ts": `import type { T } from "../checks/types.ts";\nexport type C = T | 1;\n`,
  // The suite's folders, each above those it uses: runner/ → run/, proxy/ → checks/ → report/ → http/ → inputs/.
  "contract-tests/runner/args.ts": `export const args = 1;\n`,
  "contract-tests/engine/engine.ts": `import { args } from "../runner/args.ts";\nexport const e = args;\n`,
  "contract-tests/run/loop.ts": `import { e } from "../engine/engine.ts";\nexport const l = e;\n`,
  "contract-tests/run/settings.ts": `import { args } from "../runner/args.ts";\nimport { r } from "../report/shapes.ts";\nexport const settings = args + r;\n`,
  "contract-tests/checks/check.ts": `import { settings } from "../run/settings.ts";\nimport { k } from "../inputs/keys.ts";\nexport const c = settings + k;\n`,
  "contract-tests/report/shapes.ts": `import { b } from "../http/budget.ts";\nexport const r = b;\n`,
  "contract-tests/report/format.ts": `import { c } from "../checks/check.ts";\nexport const f = c;\n`,
  "contract-tests/http/budget.ts": `import { k } from "../inputs/keys.ts";\nexport const b = k;\n`,
  "contract-tests/inputs/keys.ts": `export const k = 1;\n`,
  "contract-tests/inputs/ids.ts": `import { b } from "../http/budget.ts";\nexport const i = b;\n`,
};

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-boundaries-"));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.join(scratch, path.dirname(file)), { recursive: true });
    await writeFile(path.join(scratch, file), text);
  }
  await cp(fromRoot(".dependency-cruiser.cjs"), path.join(scratch, ".dependency-cruiser.cjs"));
  await cp(fromRoot("tsconfig.json"), path.join(scratch, "tsconfig.json"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("npm run lint:boundaries", { timeout: 60_000 }, () => {
  it("passes the kit itself", async () => {
    const { code, output } = await depcruise(repoRoot, [
      "src",
      "lib",
      "sandbox",
      "contract-tests",
      "scripts",
      "bench",
      "test",
    ]);
    expect(code, output).toBe(0);
    expect(output).toContain("no dependency violations found");
  });

  it("fails every forbidden import, naming the rule, and lets the allowed ones through", async () => {
    const { code, output } = await depcruise(scratch, ["src", "lib", "sandbox", "contract-tests", "scripts", "test"]);
    expect(code).not.toBe(0);
    const violations = output
      .split("\n")
      .filter((line) => line.trim().startsWith("error "))
      .map((line) => line.trim())
      .sort();
    expect(violations).toEqual(
      [
        "error client-stands-alone: src/client.ts → lib/shared.ts",
        "error client-stands-alone: src/client.ts → fs",
        "error core-runs-anywhere: sandbox/core/service.ts → crypto",
        "error core-knows-no-adapter: sandbox/core/service.ts → sandbox/sqlite-storage.ts",
        "error lib-is-neutral: lib/shared.ts → sandbox/server.ts",
        // A circle is named at one of its modules, whatever folder it is in.
        "error no-circular: contract-tests/check.ts →",
        "error no-circular: contract-tests/checks/types.ts →",
        "error no-circular: src/fetch.ts →",
        "error suite-requests-at-the-bottom: contract-tests/http/curl.ts → contract-tests/checks/types.ts",
        "error suite-runner-on-top: contract-tests/run/settings.ts → contract-tests/runner/args.ts",
        "error suite-runner-on-top: contract-tests/engine/engine.ts → contract-tests/runner/args.ts",
        "error suite-engine-above-the-run: contract-tests/run/loop.ts → contract-tests/engine/engine.ts",
        "error suite-checks-below-the-run: contract-tests/checks/check.ts → contract-tests/run/settings.ts",
        "error suite-reports-below-the-checks: contract-tests/report/format.ts → contract-tests/checks/check.ts",
        "error suite-inputs-know-no-requests: contract-tests/inputs/ids.ts → contract-tests/http/budget.ts",
        "error sandbox-is-a-server-of-its-own: sandbox/server.ts → contract-tests/check.ts",
        "error sandbox-is-a-server-of-its-own: sandbox/server.ts → src/errors.ts",
        "error sandbox-ships-no-faults: sandbox/main.ts → sandbox/testing/faults.ts",
        "error suite-ships-alone: contract-tests/check.ts → scripts/tool.ts",
        "error suite-ships-alone: contract-tests/check.ts → test/helper.ts",
        "error tests-stay-in-test: contract-tests/check.ts → test/helper.ts",
      ].sort(),
    );
  });
});
