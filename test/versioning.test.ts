import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { fromRoot } from "../scripts/lib/paths.ts";

describe("versioning", () => {
  it("the spec's info.version, the package version and the newest CHANGELOG entry agree", async () => {
    const spec = parse(await readFile(fromRoot("openapi/openapi.yaml"), "utf8")) as { info: { version: string } };
    const pkg = JSON.parse(await readFile(fromRoot("package.json"), "utf8")) as { version: string };
    const newest = /^## (\S+)/m.exec(await readFile(fromRoot("CHANGELOG.md"), "utf8"))?.[1];
    expect(newest, "the newest CHANGELOG.md entry").toBe(spec.info.version);
    expect(pkg.version, "package.json").toBe(spec.info.version);
  });
});
