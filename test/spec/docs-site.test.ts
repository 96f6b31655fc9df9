import { beforeAll, describe, expect, it } from "vitest";
import { mkdir } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { runCommand } from "../../lib/process.ts";
import { bin, fromRoot, repoRoot } from "../../scripts/lib/paths.ts";
import { browserFor, withBrowser } from "../support/browser.ts";

const chrome = browserFor("test/spec/docs-site.test.ts");

describe.skipIf(!chrome)("the reference site, in a real browser", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const built = await runCommand(bin("tsx"), [fromRoot("scripts/build-docs.ts")], { cwd: repoRoot });
    expect(built.code, built.output).toBe(0);
  });

  it("shows the three operations, their 422 answers and the auth scheme, loading nothing from outside", () =>
    withBrowser("chromium", chrome!, async (browser) => {
      const page = await browser.newPage();
      await page.setViewport({ width: 1400, height: 1000 });
      const outside: string[] = [];
      await page.setRequestInterception(true);
      page.on("request", (request) => {
        const url = request.url();
        if (url.startsWith("file:") || url.startsWith("data:") || url.startsWith("blob:"))
          return void request.continue();
        outside.push(url);
        void request.abort();
      });
      await page.goto(pathToFileURL(fromRoot("dist/docs/index.html")).href);
      // Redoc lists a tag's operations in the sidebar once the tag is opened, as a reader does: click the tag's own label.
      const files = await page.waitForSelector("::-p-xpath(//*[normalize-space(text())='Files'])");
      await files!.click();
      // Redoc renders an operation's details when it is opened: open each from the sidebar, as a reader would.
      const operations = {
        getFile: "Get a file's metadata",
        updateFile: "Update a file's public URL and labels",
        getFileDownloadUrl: "Get a signed download URL for a file",
      };
      // The text under an operation's last heading (its section, once Redoc has rendered it; the sidebar's entry before).
      const shownUnder = async (summary: string) => {
        const text = await page.evaluate(() => document.body.innerText);
        const from = text.lastIndexOf(summary);
        return text.slice(from, from + 4000);
      };
      for (const [operationId, summary] of Object.entries(operations)) {
        await page.click(`a[href="#/files/${operationId.toLowerCase()}"]`);
        // Redoc renders the section after the click: wait for its content, not for the sidebar entry that is already there.
        await expect
          .poll(() => shownUnder(summary), { timeout: 20_000, message: `${summary}: its answers` })
          .toMatch(/\b422\b/);
        await expect
          .poll(() => shownUnder(summary), { timeout: 20_000, message: `${summary}: its auth scheme` })
          .toContain("bearerAuth");
      }
      await mkdir(fromRoot("reports"), { recursive: true });
      await page.screenshot({ path: fromRoot("reports/docs-site.png"), fullPage: false });
      expect(outside).toEqual([]);
    }));
});
