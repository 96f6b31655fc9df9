import { accessSync, constants, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { missing } from "./missing.ts";

/** How each browser is found on users' machines and CI runners: its variable first, then these names on PATH. */
export const BROWSERS = {
  /** Debian's and Ubuntu's Chromium, then Google Chrome (GitHub's runners). */
  chromium: {
    variable: "CHROME_PATH",
    names: ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"],
    debian: "chromium",
  },
  /** Debian's Firefox ESR, then Firefox as other distributions name it. */
  firefox: { variable: "FIREFOX_PATH", names: ["firefox-esr", "firefox"], debian: "firefox-esr" },
} as const;

/** A browser the tests can drive. */
export type BrowserKind = keyof typeof BROWSERS;

/** The browser names looked up on PATH for Chromium, in order. */
export const BROWSER_NAMES = BROWSERS.chromium.names;

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Finds a browser as users' machines and CI runners have it: its variable (CHROME_PATH, FIREFOX_PATH), then its names on PATH. */
export function findBrowser(kind: BrowserKind, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const { variable, names } = BROWSERS[kind];
  const own = env[variable];
  if (own) {
    if (!isExecutable(own))
      throw new Error(`${variable}=${own} is not an executable file: point it at the browser, or unset it.`);
    return own;
  }
  for (const name of names) {
    for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Finds Chromium or Chrome: CHROME_PATH, then BROWSER_NAMES on PATH. */
export const findChrome = (env: NodeJS.ProcessEnv = process.env): string | undefined => findBrowser("chromium", env);

/** The browser for the tests in `file`, or undefined (they skip); under CI=true a missing browser fails instead. */
export function browserFor(file: string, kind: BrowserKind = "chromium"): string | undefined {
  const found = findBrowser(kind);
  if (found) return found;
  const { variable, names, debian } = BROWSERS[kind];
  return missing(
    file,
    `no ${kind} found (${variable}, or ${names.join(", ")} on PATH)`,
    `Install one (apt-get install -y ${debian}) or set ${variable}`,
  );
}

/** The flags that keep Chromium's start from stalling on a machine without network. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launches a browser headless through puppeteer-core (Chromium over CDP, Firefox over WebDriver BiDi) with a fresh
 * profile, runs `use`, and closes both, whatever `use` does.
 */
export async function withBrowser<T>(
  kind: BrowserKind,
  executablePath: string,
  use: (browser: Browser) => Promise<T>,
): Promise<T> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), `file-library-${kind}-`));
  const browser =
    kind === "firefox"
      ? await puppeteer.launch({ browser: "firefox", executablePath, headless: true, userDataDir })
      : await puppeteer.launch({ browser: "chrome", executablePath, headless: true, userDataDir, args: CHROMIUM_ARGS });
  try {
    return await use(browser);
  } finally {
    await browser.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
}
