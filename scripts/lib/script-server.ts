import { startServer, type ServerProcess } from "../../lib/process.ts";
import { fromRoot, repoRoot } from "./paths.ts";

/**
 * Starts one of the kit's TypeScript servers (the sandbox, the bench's bare server) under node with tsx, once it
 * prints "listening at URL"; `launcher` as for startServer.
 */
export function startScriptServer(
  script: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
  launcher: string[] = [],
): Promise<ServerProcess> {
  return startServer(process.execPath, ["--import", "tsx", fromRoot(script), ...args], {
    launcher,
    cwd: repoRoot,
    env,
    ready: /listening at (http:\/\/\S+)/,
    timeoutMs: 30_000,
    what: script,
  });
}
