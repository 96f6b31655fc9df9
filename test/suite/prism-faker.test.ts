import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";

/** What Prism's `require("@faker-js/faker")` gets, with and without the kit's preload. */
function fakerAsPrismSeesIt(preload: boolean) {
  const probe = `
    const faker = require("@faker-js/faker");
    const files = Object.keys(require.cache).filter((f) => f.includes("@faker-js"));
    console.log(JSON.stringify({ locale: faker.default.locale, word: typeof faker.default.lorem.word(), same: faker.default === faker.faker, files: files.length }));`;
  const args = [...(preload ? ["--require", fromRoot("scripts/lib/prism-faker-en.cjs")] : []), "-e", probe];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: fromRoot(), encoding: "utf8" })) as {
    locale: string;
    word: string;
    same: boolean;
    files: number;
  };
}

describe("the Prism mock's faker preload", () => {
  it("hands Prism the English instance it uses, without loading every locale", () => {
    const full = fakerAsPrismSeesIt(false);
    const light = fakerAsPrismSeesIt(true);
    // What Prism relies on: the default export, an English faker that makes data.
    expect(light).toMatchObject({ locale: "en", word: "string", same: true });
    expect(full).toMatchObject({ locale: "en", word: "string" });
    // Faker's full entry loads one module per locale; the English one, a handful.
    expect(light.files).toBeLessThan(full.files / 5);
  });
});
