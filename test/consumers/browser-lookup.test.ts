import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { findBrowser, findChrome } from "../support/browser.ts";

let scratch: string;
/** A fake executable `name` in folder `dir` of the scratch space; resolves with its path. */
async function executable(dir: string, name: string): Promise<string> {
  const file = path.join(scratch, dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "#!/bin/sh\n");
  await chmod(file, 0o755);
  return file;
}
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-browsers-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the browser tests find the browser as users' machines and CI runners have it", () => {
  it("CHROME_PATH first, whatever PATH holds", async () => {
    const own = await executable("own", "my-chrome");
    await executable("bin1", "chromium");
    expect(findChrome({ CHROME_PATH: own, PATH: path.join(scratch, "bin1") })).toBe(own);
  });

  it("then chromium, chromium-browser, google-chrome, google-chrome-stable, in that order, anywhere on PATH", async () => {
    const chrome = await executable("runner", "google-chrome");
    const stable = await executable("runner", "google-chrome-stable");
    const ubuntu = await executable("ubuntu", "chromium-browser");
    const dirs = (...names: string[]) => names.map((n) => path.join(scratch, n)).join(path.delimiter);
    expect(findChrome({ PATH: dirs("runner") })).toBe(chrome);
    expect(findChrome({ PATH: dirs("runner", "ubuntu") })).toBe(ubuntu);
    expect(findChrome({ PATH: dirs("empty") })).toBeUndefined();
    await rm(chrome);
    expect(findChrome({ PATH: dirs("runner") })).toBe(stable);
  });

  it("says what is wrong with a CHROME_PATH that is not an executable file", async () => {
    expect(() => findChrome({ CHROME_PATH: path.join(scratch, "nothing-here"), PATH: "" })).toThrow(
      /CHROME_PATH=.*nothing-here is not an executable file/,
    );
  });

  it("finds Firefox by FIREFOX_PATH, then firefox-esr before firefox on PATH", async () => {
    const firefox = await executable("ff", "firefox");
    const esr = await executable("ff", "firefox-esr");
    const own = await executable("ff-own", "my-firefox");
    expect(findBrowser("firefox", { PATH: path.join(scratch, "ff") })).toBe(esr);
    expect(findBrowser("firefox", { FIREFOX_PATH: own, PATH: path.join(scratch, "ff") })).toBe(own);
    await rm(esr);
    expect(findBrowser("firefox", { PATH: path.join(scratch, "ff") })).toBe(firefox);
    expect(findBrowser("firefox", { PATH: path.join(scratch, "runner") })).toBeUndefined();
  });
});
