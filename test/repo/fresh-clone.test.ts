// covers: bench/lib/fresh-clone.ts
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { asFreshClone, BUILT } from "../../bench/lib/fresh-clone.ts";

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

/** A repo-like folder with a build, a report and a step record, as `npm run build` and `npm run contract` leave them. */
async function builtRepo(): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), "file-library-fresh-clone-"));
  roots.push(root);
  for (const [file, text] of [
    ["dist/index.js", "the build"],
    ["reports/stress/round-1.log", "a stress round"],
    [`${BUILT.at(-1)}/lint.json`, "a record"],
  ] as const) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("the bench's fresh-clone rounds", () => {
  it("run with none of the builds, reports or records, and an empty temporary folder of their own", async () => {
    const root = await builtRepo();
    const seen = await asFreshClone(
      { KEPT: "1" },
      async (env) => ({
        present: BUILT.filter((dir) => existsSync(path.join(root, dir))),
        tmp: readdirSync(env.TMPDIR!),
        env,
      }),
      root,
    );
    expect(seen.present).toEqual([]);
    expect(seen.tmp).toEqual([]);
    expect(seen.env).toMatchObject({ KEPT: "1", TMP: seen.env.TMPDIR, TEMP: seen.env.TMPDIR });
    expect(existsSync(seen.env.TMPDIR!)).toBe(false);
  });

  it("put back what they found, as it was, and drop what the run left, also when the run fails", async () => {
    const root = await builtRepo();
    const run = asFreshClone(
      {},
      async () => {
        mkdirSync(path.join(root, "dist"));
        writeFileSync(path.join(root, "dist", "openapi.json"), "{}");
        mkdirSync(path.join(root, "node_modules", ".vite"), { recursive: true });
        throw new Error("the run failed");
      },
      root,
    );
    await expect(run).rejects.toThrow("the run failed");
    expect(readFileSync(path.join(root, "dist/index.js"), "utf8")).toBe("the build");
    expect(existsSync(path.join(root, "dist/openapi.json"))).toBe(false);
    expect(readFileSync(path.join(root, "reports/stress/round-1.log"), "utf8")).toBe("a stress round");
    expect(readFileSync(path.join(root, BUILT.at(-1)!, "lint.json"), "utf8")).toBe("a record");
    expect(existsSync(path.join(root, "node_modules/.vite"))).toBe(false);
    // Nothing set aside is left behind, anywhere in the repo.
    expect(readdirSync(root, { recursive: true }).filter((name) => String(name).includes("bench-aside"))).toEqual([]);
  });

  it("put back what they moved when a move fails half-way, and do not run", async () => {
    const root = await builtRepo();
    // reports/ cannot be moved: a non-empty folder stands where it would go. dist/, moved before it, must come back.
    mkdirSync(path.join(root, `reports.bench-aside-${process.pid}`, "in-the-way"), { recursive: true });
    let ran = false;
    await expect(asFreshClone({}, async () => (ran = true), root)).rejects.toThrow(/ENOTEMPTY|EEXIST/);
    expect(ran).toBe(false);
    expect(readFileSync(path.join(root, "dist/index.js"), "utf8")).toBe("the build");
    expect(readFileSync(path.join(root, "reports/stress/round-1.log"), "utf8")).toBe("a stress round");
    expect(readFileSync(path.join(root, BUILT.at(-1)!, "lint.json"), "utf8")).toBe("a record");
  });
});
