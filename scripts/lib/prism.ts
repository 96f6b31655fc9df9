import { spawnTracked } from "../../contract-tests/runner/child-process.ts";
import { bin, repoRoot } from "./paths.ts";

/** A running Prism mock. */
export interface RunningMock {
  baseUrl: string;
  /** Prism's process id. */
  pid: number;
  /** Stops Prism and waits for it to exit. */
  stop(): Promise<void>;
  /** What Prism printed so far, for failure reports. */
  output(): string;
}

const READY = /Prism is listening on (http:\/\/\S+)/;
const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 3_000;

/** Starts `prism mock` on a free loopback port (port 0) and resolves once it listens. */
export function startPrism(specFile: string): Promise<RunningMock> {
  const child = spawnTracked(bin("prism"), ["mock", "--host", "127.0.0.1", "--port", "0", specFile], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`The Prism mock did not start: ${reason}.\n--- Prism output ---\n${output.trim()}`));
    };
    const timer = setTimeout(() => fail(`no "listening" line within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ baseUrl: match[1]!, pid: child.pid!, stop, output: () => output });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`it exited early (${signal ?? `code ${code}`})`));
  });
}
