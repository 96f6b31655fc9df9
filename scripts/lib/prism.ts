import { startServer, type ServerProcess } from "../../lib/process.ts";
import { bin, fromRoot, repoRoot } from "./paths.ts";

/**
 * Starts `prism mock` of a spec on a free loopback port (port 0) and resolves once it listens; `launcher` as for
 * startScriptServer. Prism runs with faker's English-only instance (see prism-faker-en.cjs): a second faster start.
 */
export function startPrism(specFile: string, launcher: string[] = []): Promise<ServerProcess> {
  const prism = [process.execPath, "--require", fromRoot("scripts/lib/prism-faker-en.cjs"), bin("prism")];
  const [command, ...args] = [...launcher, ...prism, "mock", "--host", "127.0.0.1", "--port", "0", specFile];
  return startServer(command!, args, {
    cwd: repoRoot,
    ready: /Prism is listening on (http:\/\/\S+)/,
    timeoutMs: 30_000,
    what: "The Prism mock",
  });
}
