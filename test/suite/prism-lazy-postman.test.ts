import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";

/** What Prism's `require("postman-collection")` costs and gives, with and without the kit's preload. */
function postmanAsPrismSeesIt(preload: boolean) {
  const probe = `
    const count = () => Object.keys(require.cache).filter((f) => f.includes("postman-collection")).length;
    const postman = require("postman-collection");
    const onRequire = count();
    const collection = new postman.Collection({ info: { name: "files" }, item: [{ name: "get", request: "https://files.example/v1" }] });
    console.log(JSON.stringify({ onRequire, onUse: count(), name: collection.name, items: collection.items.count(), isCollection: postman.Collection.isCollection(collection) }));`;
  const args = [...(preload ? ["--require", fromRoot("scripts/lib/prism-lazy-postman.cjs")] : []), "-e", probe];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: fromRoot(), encoding: "utf8" })) as Record<
    string,
    unknown
  >;
}

describe("the Prism mock's lazy postman-collection preload", () => {
  it("loads none of postman-collection until Prism uses it, and then the real package", () => {
    const eager = postmanAsPrismSeesIt(false);
    const lazy = postmanAsPrismSeesIt(true);
    expect(eager.onRequire).toBeGreaterThan(50);
    expect(lazy.onRequire).toBe(0);
    // Used, it is the package itself: the same collection, its modules loaded.
    expect(lazy).toMatchObject({ name: "files", items: 1, isCollection: true, onUse: eager.onUse });
    expect(eager).toMatchObject({ name: "files", items: 1, isCollection: true });
  });
});
