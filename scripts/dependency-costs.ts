/**
 * `npm run deps:cost`: what each direct dependency costs `npm ci`, from package-lock.json and the installed tree.
 * For each one: the packages only it brings (what dropping it would remove), their size on disk, and their install
 * scripts' time when an npm timing log is given (`npm ci --timing` writes one; `--timing FILE` reads it). Prints the
 * top 10 by size and by time, as Markdown.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { readCommandLine, usageFailure, wholeNumber } from "../lib/command-line.ts";
import { fromRoot, repoRoot } from "./lib/paths.ts";

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  link?: boolean;
  resolved?: string;
}

const COMMAND = {
  name: "deps:cost",
  invocation: "npm run deps:cost --",
  about: `What each direct dependency costs \`npm ci\`: the packages only it brings (what dropping it would remove) and
their size on disk, from package-lock.json and the installed tree; with --timing, their install scripts' time.
Prints the top dependencies by size, and by install-script time, as Markdown tables.`,
  flags: {
    timing: {
      takes: "FILE",
      help: "the timing log of an `npm ci --timing` (under ~/.npm/_logs/): adds the install-script times",
    },
    top: { takes: "N", default: "10", parse: wholeNumber(1), help: "rows of each table" },
  },
} as const;
const { values } = readCommandLine(COMMAND);
const lock = JSON.parse(readFileSync(fromRoot("package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
const entries = lock.packages;

/** Where node finds `name` from the package at `from`: its own node_modules, then each parent's, then the top. */
function resolve(from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
    const entry = entries[candidate];
    if (entry) return entry.link && entry.resolved ? entry.resolved : candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut === -1 ? "" : base.slice(0, cut);
  }
}

/** Every package `start` brings, itself included. */
function closure(start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    const entry = entries[at] ?? {};
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = resolve(at, name);
      if (found) stack.push(found);
    }
  }
  return seen;
}

/** Bytes on disk of a package's own files (its nested node_modules are packages of their own). */
function sizeOf(pkg: string): number {
  let total = 0;
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name === "node_modules") continue;
      const full = path.join(dir, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) walk(full);
      else total += stat.blocks * 512;
    }
  };
  walk(path.join(repoRoot, pkg));
  return total;
}

// The direct dependencies: the root's and the workspaces' (their packages sit at the top of node_modules).
const direct = new Map<string, string>();
for (const workspace of ["", "contract-tests", "sandbox"]) {
  const entry = entries[workspace] ?? {};
  for (const name of Object.keys({ ...entry.dependencies, ...entry.devDependencies, ...entry.optionalDependencies })) {
    const found = resolve(workspace, name);
    if (found && !found.startsWith("contract-tests") && !found.startsWith("sandbox")) direct.set(name, found);
  }
}

const closures = new Map([...direct].map(([name, at]) => [name, closure(at)]));
const sizes = new Map<string, number>();
const size = (pkg: string) => sizes.get(pkg) ?? (sizes.set(pkg, sizeOf(pkg)), sizes.get(pkg)!);
const scripts = new Map<string, number>();
if (values.timing) {
  let timers: Record<string, number>;
  try {
    timers = (JSON.parse(readFileSync(values.timing, "utf8")) as { timers?: Record<string, number> }).timers ?? {};
  } catch (error) {
    usageFailure(
      COMMAND,
      `--timing ${values.timing} is not a timing log npm wrote (${(error as Error).message.split("\n")[0]})`,
    );
  }
  for (const [key, ms] of Object.entries(timers)) {
    const match = /^build:run:(?:preinstall|install|postinstall):(.+)$/.exec(key);
    if (match) scripts.set(match[1]!, (scripts.get(match[1]!) ?? 0) + ms);
  }
}

const rows = [...closures].map(([name, mine]) => {
  const others = new Set<string>();
  for (const [other, set] of closures) if (other !== name) for (const pkg of set) others.add(pkg);
  const only = [...mine].filter((pkg) => !others.has(pkg));
  return {
    name,
    packages: only.length,
    bytes: only.reduce((sum, pkg) => sum + size(pkg), 0),
    scriptMs: only.reduce((sum, pkg) => sum + (scripts.get(pkg) ?? 0), 0),
  };
});
const top = values.top;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
// Without a timing log the scripts' times are unknown, not zero: the column is left out and a line says so.
const timed = values.timing !== undefined;
const table = (title: string, list: typeof rows) =>
  [
    `### ${title}`,
    "",
    `| dependency | packages only it brings | their size, MB |${timed ? " their install scripts, s |" : ""}`,
    `|---|---|---|${timed ? "---|" : ""}`,
    ...list
      .slice(0, top)
      .map(
        (r) => `| ${r.name} | ${r.packages} | ${mb(r.bytes)} |${timed ? ` ${(r.scriptMs / 1000).toFixed(1)} |` : ""}`,
      ),
    "",
  ].join("\n");
const total = [...new Set([...closures.values()].flatMap((set) => [...set]))].reduce((sum, pkg) => sum + size(pkg), 0);
console.log(
  `${direct.size} direct dependencies bring ${Object.keys(entries).length - 1} packages, ${mb(total)} MB on disk.\n`,
);
console.log(
  table(
    "By size of what only it brings",
    [...rows].sort((a, b) => b.bytes - a.bytes),
  ),
);
if (!timed)
  console.log(
    "Install-script times: not measured. Pass --timing FILE, the log `npm ci --timing` writes under ~/.npm/_logs/.",
  );
if (timed)
  console.log(
    table(
      "By install-script time (the rest of `npm ci` is unpacking, about in proportion to size)",
      [...rows].sort((a, b) => b.scriptMs - a.scriptMs),
    ),
  );
