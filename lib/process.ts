import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { constants, setPriority } from "node:os";

const running = new Set<ChildProcess>();
// When each child closed (exited, and its output read to the end), with its exit code.
const closings = new WeakMap<ChildProcess, Promise<number>>();
let exitHookInstalled = false;

/** Spawn options, and the child's niceness (1 to 19): the higher, the more it leaves the CPU to the others. */
export type ChildOptions = SpawnOptions & {
  niceness?: number | undefined;
  /**
   * Start it as the leader of a process group, and signal the whole group: for a command that runs the real
   * program in a process of its own and does not pass signals on (`npx`, `npm exec` through `sh -c`).
   */
  group?: boolean | undefined;
};

// The children that lead a process group: a signal goes to the group, whichever of its processes is still there.
const groupLeaders = new WeakSet<ChildProcess>();

/** Sends `signal` to a child started here, or to its whole group when it leads one. */
export function signalChild(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!groupLeaders.has(child)) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return;
  }
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // ESRCH: every process of the group is gone already.
  }
}

/**
 * Starts a child process that does not outlive this one: it is stopped when this process exits, and when the
 * `signal` of its options aborts. Installs no signal handler: a host keeps its own (see `exitOnInterrupt`).
 */
export function startChild(
  command: string,
  args: string[],
  { niceness, group, ...options }: ChildOptions = {},
): ChildProcess {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // An "exit" listener runs whoever ends the process, and changes nothing about how it ends.
    process.once("exit", () => stopChildren("SIGTERM"));
  }
  const child = spawn(command, args, group ? { ...options, detached: true } : options);
  if (group && child.pid !== undefined) groupLeaders.add(child);
  if (niceness !== undefined && child.pid !== undefined) {
    try {
      setPriority(child.pid, niceness);
    } catch {
      // Where priorities cannot be set, the child runs at the usual one: it may finish later, never wrongly.
    }
  }
  running.add(child);
  // A group may outlive its leader: it stays listed for stopChildren until its output is closed.
  child.once(group ? "close" : "exit", () => running.delete(child));
  closings.set(child, new Promise((resolve) => child.once("close", () => resolve(exitCode(child)))));
  // An aborted spawn reports through "error"; whoever waits for the child hears of it from its exit.
  child.on("error", () => {});
  return child;
}

/** Sends `signal` to every child started here that is still running. */
export function stopChildren(signal: NodeJS.Signals = "SIGTERM"): void {
  for (const child of running) signalChild(child, signal);
}

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/**
 * For command-line entry points only: on SIGINT, SIGTERM or SIGHUP, stop every child started here and exit with
 * 128 + the signal's number, as a shell reports it. Libraries never call this; it would take over the host's shutdown.
 */
export function exitOnInterrupt(): void {
  for (const signal of Object.keys(SIGNAL_NUMBERS) as Array<keyof typeof SIGNAL_NUMBERS>) {
    process.once(signal, () => {
      stopChildren(signal === "SIGHUP" ? "SIGTERM" : signal);
      process.exit(128 + SIGNAL_NUMBERS[signal]);
    });
  }
}

/** The exit code of a child that has exited: 128 + n when a signal ended it, as a shell reports it (SIGKILL 137, SIGSEGV 139). */
const exitCode = (child: ChildProcess) =>
  child.exitCode ?? (child.signalCode ? 128 + (constants.signals[child.signalCode] ?? 0) : 1);

/** Resolves with the exit code of a child started here once it has exited and its output has been read to the end. */
export function exitCodeOf(child: ChildProcess): Promise<number> {
  return closings.get(child) ?? Promise.reject(new Error("exitCodeOf: the child was not started with startChild"));
}

/** A finished command: its exit code and everything it printed, stdout and stderr interleaved. */
export interface CommandResult {
  code: number;
  output: string;
}

/** Runs a command to completion, capturing its output; rejects when it cannot start or when `signal` aborts it. */
export function runCommand(command: string, args: string[], options: ChildOptions = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = startChild(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (error) => reject(options.signal?.aborted ? options.signal.reason : error));
    child.once("close", (code, signal) => {
      if (options.signal?.aborted) reject(options.signal.reason);
      else resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/**
 * Resolves with the first match of `pattern` in what the child prints from now on (stdout and stderr); rejects,
 * with that output, when the child exits first or after `timeoutMs`.
 */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 0): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = "";
    const done = (settle: () => void) => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("close", onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) done(() => resolve(match));
    };
    // "close" comes after the last output: "exit" may come before it.
    const onClose = (code: number | null, signal: string | null) =>
      done(() =>
        reject(
          new Error(
            `it exited (${signal ?? `code ${code}`}) before printing ${pattern}; its output:\n${output.trim()}`,
          ),
        ),
      );
    const timer =
      timeoutMs > 0
        ? setTimeout(
            () =>
              done(() =>
                reject(new Error(`no ${pattern} within ${timeoutMs / 1000} s; its output:\n${output.trim()}`)),
              ),
            timeoutMs,
          )
        : undefined;
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("close", onClose);
  });
}

/** A server in a process of its own, listening. */
export interface ServerProcess {
  /** The URL it printed (the first group of `ready`). */
  url: string;
  pid: number;
  /** Everything it printed so far, for failure reports. */
  output(): string;
  /** SIGTERM, then SIGKILL after a grace period; resolves once it has exited. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 3_000;
// What a server printed is kept for failure reports; its start and its last lines say what went wrong.
const OUTPUT_KEPT = 64 * 1024;

/**
 * Starts a server process and resolves once its output matches `ready`, whose first group is its URL. Its output
 * keeps being read afterwards, so that a server that logs every request never blocks on a full pipe. `launcher`
 * runs it through another command (`taskset -c 1`, say).
 */
export async function startServer(
  command: string,
  args: string[],
  {
    ready,
    timeoutMs,
    what,
    launcher = [],
    ...options
  }: ChildOptions & { ready: RegExp; timeoutMs: number; what: string; launcher?: string[] },
): Promise<ServerProcess> {
  const [program, ...rest] = [...launcher, command, ...args];
  const child = startChild(program!, rest, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_KEPT));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const stop = async () => {
    // Closed once every process that holds its output is gone: with a group, the processes its leader started too.
    const closed = exitCodeOf(child);
    signalChild(child, "SIGTERM");
    const timer = setTimeout(() => signalChild(child, "SIGKILL"), STOP_GRACE_MS);
    await closed;
    clearTimeout(timer);
  };
  try {
    const [, url] = await waitForOutput(child, ready, timeoutMs);
    return { url: url!, pid: child.pid!, output: () => output, stop };
  } catch (error) {
    await stop();
    throw new Error(`${what} did not start: ${(error as Error).message}`);
  }
}
