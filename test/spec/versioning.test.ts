import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { fromRoot } from "../../scripts/lib/paths.ts";

describe("versioning", () => {
  it("the spec's info.version, the three package versions and the newest CHANGELOG entry agree", async () => {
    const spec = parse(await readFile(fromRoot("openapi/openapi.yaml"), "utf8")) as { info: { version: string } };
    const version = async (manifest: string) =>
      (JSON.parse(await readFile(fromRoot(manifest), "utf8")) as { version: string }).version;
    // "## Unreleased" gathers what the next version will say; the newest released entry follows it.
    const newest = /^## (?!Unreleased$)(\S+)/m.exec(await readFile(fromRoot("CHANGELOG.md"), "utf8"))?.[1];
    expect(newest, "the newest CHANGELOG.md entry").toBe(spec.info.version);
    expect(await version("package.json"), "package.json (the client)").toBe(spec.info.version);
    // The contract package ships this spec: its version says which spec it checks against.
    expect(await version("contract-tests/package.json"), "contract-tests/package.json").toBe(spec.info.version);
    // So does the sandbox package: it serves this spec.
    expect(await version("sandbox/package.json"), "sandbox/package.json").toBe(spec.info.version);
  });
});
