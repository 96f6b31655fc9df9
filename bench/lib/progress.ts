/**
 * What `npm run bench` says while it works, on stderr (stdout is the report): its plan, a line as each section starts
 * and ends, and a count inside a section. On a terminal a count rewrites its own line; elsewhere (a log, CI) each
 * count is a line of its own.
 */

const out = process.stderr;
let current: string | undefined;
let countShown = false;

const seconds = (s: number) => (s >= 90 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`);

/** Prints the plan: the start (the spec's bundle, the benchmarks' modules), then each section, with about how long each takes on 2 cores. */
export function announcePlan(startSeconds: number, sections: ReadonlyArray<{ name: string; about: number }>): void {
  const total = sections.reduce((sum, { about }) => sum + about, startSeconds);
  out.write(`bench: the plan, about ${seconds(total)} in all on 2 cores (longer on a loaded or slower machine):\n`);
  out.write(
    `bench:   ${"start".padEnd(20)} about ${seconds(startSeconds)} (the spec's bundle, the benchmarks' modules)\n`,
  );
  for (const { name, about } of sections) out.write(`bench:   ${name.padEnd(20)} about ${seconds(about)}\n`);
}

/** Says that the start is over, and how long it took. */
export function announceStarted(startedAt: number): void {
  out.write(`bench: started in ${((performance.now() - startedAt) / 1000).toFixed(0)} s\n`);
}

/** Runs one section between its start and end lines; `index` counts from 1. */
export async function inSection<T>(name: string, index: number, of: number, run: () => Promise<T>): Promise<T> {
  current = name;
  out.write(`bench: [${index}/${of}] ${name} started\n`);
  const started = performance.now();
  try {
    return await run();
  } finally {
    endCount();
    current = undefined;
    out.write(`bench: [${index}/${of}] ${name} took ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
}

/** A count inside the current section (`round 3 of 9`); outside a section, nothing. */
export function count(done: number, total: number, what = "round"): void {
  if (current === undefined) return;
  const line = `bench:   ${current}: ${what} ${done} of ${total}`;
  if (out.isTTY) {
    out.write(`\r${line}\u001b[K`);
    countShown = true;
  } else out.write(`${line}\n`);
}

function endCount(): void {
  if (countShown) out.write("\n");
  countShown = false;
}
