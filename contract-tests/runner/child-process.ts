import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/** Environment for every tool we start: Redocly stays offline and quiet. */
export const toolEnv: NodeJS.ProcessEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
};

const children = new Set<ChildProcess>();
let handlersInstalled = false;

/** Stops every child we started, then exits; installed once, on the first spawn. */
function installSignalHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAll(signal);
      // 128 + signal number, as a shell reports it.
      process.exit(signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 129);
    });
  }
  process.once("exit", () => killAll("SIGTERM"));
}

/** Sends `signal` to every child still running. */
export function killAll(signal: NodeJS.Signals = "SIGTERM"): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

/** Spawns a child that is tracked, so that it is stopped when this process ends for any reason. */
export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  installSignalHandlers();
  const child = spawn(command, args, { env: toolEnv, ...options });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Result of a finished command: its exit code and everything it printed, interleaved. */
export interface CommandResult {
  code: number;
  output: string;
}

/** Runs a command to completion, capturing stdout and stderr together. */
export function runCommand(command: string, args: string[], options: SpawnOptions = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawnTracked(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}
