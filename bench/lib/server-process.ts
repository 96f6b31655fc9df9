import type { ChildProcess } from "node:child_process";
import { spawnTracked } from "../../contract-tests/runner/child-process.ts";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";

/** A server running in its own process (so that it never shares an event loop with the load). */
export interface ServerProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts one of our TypeScript servers with node and tsx, and waits for its "listening at URL" line. */
export function startServerProcess(script: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<ServerProcess> {
  const child: ChildProcess = spawnTracked(process.execPath, ["--import", "tsx", fromRoot(script), ...args], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening at (http:\/\/\S+)/.exec(output);
      if (!match) return;
      // Keep draining its log, as a terminal would, so that the pipe never blocks the server.
      child.stdout!.off("data", onData);
      child.stdout!.resume();
      resolve({
        baseUrl: match[1]!,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) before listening:\n${output}`)));
  });
}
