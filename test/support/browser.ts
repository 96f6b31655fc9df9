import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";

/** The browser names looked up on PATH, in order: Debian's and Ubuntu's Chromium, then Google Chrome (GitHub's runners). */
export const BROWSER_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] as const;

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Finds Chromium or Chrome as users' machines and CI runners have it: CHROME_PATH, then BROWSER_NAMES on PATH. */
export function findChrome(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROME_PATH) {
    if (!isExecutable(env.CHROME_PATH)) throw new Error(`CHROME_PATH=${env.CHROME_PATH} is not an executable file: point it at Chromium or Chrome, or unset it.`);
    return env.CHROME_PATH;
  }
  for (const name of BROWSER_NAMES) {
    for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The browser for the tests in `file`, or undefined: then the caller skips them. Under CI=true a missing browser
 * fails instead (.ci/run installs Debian's chromium), so that CI never passes without having run them.
 */
export function browserFor(file: string): string | undefined {
  const found = findChrome();
  if (found) return found;
  const what = `no Chromium or Chrome found (CHROME_PATH, or ${BROWSER_NAMES.join(", ")} on PATH)`;
  if (process.env.CI === "true") throw new Error(`${file}: ${what}; .ci/run should have installed Debian's chromium package.`);
  console.warn(`${file} skipped: ${what}. Install one (apt-get install -y chromium) or set CHROME_PATH to run it.`);
  return undefined;
}

/** Launches the browser headless, with what stalls its start on a machine without network turned off. */
export function launchBrowser(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
