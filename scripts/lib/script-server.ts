import { startServer, type ServerProcess } from "../../lib/process.ts";
import { fromRoot, repoRoot } from "./paths.ts";

/**
 * Starts one of the kit's TypeScript servers (the sandbox, the bench's bare server) under node with tsx, once it
 * prints "listening at URL". `launcher` runs it through another command (`taskset -c 1`, say).
 */
export function startScriptServer(script: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env, launcher: string[] = []): Promise<ServerProcess> {
  const [command, ...rest] = [...launcher, process.execPath, "--import", "tsx", fromRoot(script), ...args];
  return startServer(command!, rest, {
    cwd: repoRoot,
    env,
    ready: /listening at (http:\/\/\S+)/,
    timeoutMs: 30_000,
    what: script,
  });
}
