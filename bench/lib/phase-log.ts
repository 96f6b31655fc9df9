import { readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The probe that `NODE_OPTIONS=--import` loads into each process of a run (see phase-probe.mjs). */
export const phaseProbe = fileURLToPath(new URL("./phase-probe.mjs", import.meta.url));

/** One line of the probe's log. */
interface ProbeEvent {
  at: number;
  event: string;
  role: string;
}

/**
 * The phases of one run, in seconds since `spawnedAt` (a time on the same clock: performance.timeOrigin +
 * performance.now()): each event's first time, keyed `role event`, and the last answer's as `worker answer`.
 */
export async function readPhaseLog(file: string, spawnedAt: number): Promise<Map<string, number>> {
  const events = (await readFile(file, "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ProbeEvent);
  const phases = new Map<string, number>();
  for (const { at, event, role } of events) {
    const key = `${role} ${event}`;
    const seconds = (at - spawnedAt) / 1000;
    // Each event once, its first time; but the answers' last.
    if (event === "answer") phases.set(key, Math.max(phases.get(key) ?? 0, seconds));
    else if (!phases.has(key) || seconds < phases.get(key)!) phases.set(key, seconds);
  }
  return phases;
}

/** The command line's NODE_OPTIONS with the probe added. */
export const withProbe = (nodeOptions: string | undefined): string =>
  `${nodeOptions ?? ""} --import=${pathToFileURL(phaseProbe).href}`.trim();
