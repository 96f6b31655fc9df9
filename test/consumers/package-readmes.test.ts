// covers: README.md, contract-tests/README.md, sandbox/README.md, package.json, contract-tests/package.json, sandbox/package.json
// Each published package's README, as npm shows it, points at nothing the package does not ship: every link is
// relative and leads to a file of the tarball, and every `dist/...` file it names is in the tarball. (npm shows the
// README without the repository around it: a link to ../docs/ leads nowhere there.)
import { execFileSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PACKAGES, type PackageName } from "../support/pack-service.ts";
import { PACK_WAIT_MS, packed } from "../support/packed.ts";

/** The files of a tarball, by their path inside the package, and its README. */
function contents(tarball: string): { files: string[]; readme: string } {
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ""));
  return { files, readme: execFileSync("tar", ["-xzOf", tarball, "package/README.md"], { encoding: "utf8" }) };
}

/** What a README points at: its Markdown links (outside code), and the `dist/` files its code spans name. */
function pointers(readme: string): { links: string[]; named: string[] } {
  const prose = readme.replace(/```[^]*?```/g, "");
  const named = [...prose.matchAll(/`(dist\/[\w./-]+\.\w+)`/g)].map((m) => m[1]!);
  const links = [...prose.replace(/`[^`\n]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return { links, named };
}

/** Where a README's pointer fails in a package of `files`, or undefined when it leads to one of them. */
function problem(target: string, files: string[]): string | undefined {
  if (/^[a-z][\w+.-]*:/i.test(target)) return "an absolute URL (the README may point at the package's own files only)";
  const file = path.posix.normalize(target.split("#")[0]!);
  if (file.startsWith("../")) return "outside the package";
  return file === "." || files.includes(file) ? undefined : "not in the tarball";
}

const names = Object.keys(PACKAGES) as PackageName[];
const packages = new Map<PackageName, { files: string[]; readme: string }>();
beforeAll(async () => {
  for (const name of names) packages.set(name, contents(await packed(name)));
}, PACK_WAIT_MS);

describe("each package's README, read inside the packed package", () => {
  it.each(names)("%s: every link and every dist/ file it names is in the tarball", (name) => {
    const { files, readme } = packages.get(name)!;
    expect(files).toContain("README.md");
    const { links, named } = pointers(readme);
    const problems = [...links, ...named].flatMap((target) => {
      const why = problem(target, files);
      return why ? [`${target}: ${why}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("reads what it checks: the client's README links its guides, the contract's names its decisions", () => {
    expect(pointers(packages.get("client")!.readme).links).toContain("docs/client.md");
    expect(pointers(packages.get("contract")!.readme).named).toContain("dist/decisions.md");
  });

  it("finds a link out of a package, a file it does not ship and an absolute URL", () => {
    const files = ["README.md", "dist/decisions.md"];
    expect(problem("../docs/decisions.md", files)).toBe("outside the package");
    expect(problem("docs/sandbox.md", files)).toBe("not in the tarball");
    expect(problem("https://example.com/docs", files)).toMatch(/absolute URL/);
    expect(problem("dist/decisions.md#secrets", files)).toBeUndefined();
  });
});
