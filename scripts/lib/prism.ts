import { startServer, type ServerProcess } from "../../lib/process.ts";
import { bin, fromRoot, repoRoot } from "./paths.ts";

/**
 * Starts `prism mock` of a spec on a free loopback port (port 0) and resolves once it listens; `launcher` as for
 * startServer. Prism runs with faker's English-only instance (see prism-faker-en.cjs): a second faster start.
 */
export function startPrism(specFile: string, launcher: string[] = []): Promise<ServerProcess> {
  const args = ["--require", fromRoot("scripts/lib/prism-faker-en.cjs"), bin("prism"), "mock", "--host", "127.0.0.1", "--port", "0", specFile];
  return startServer(process.execPath, args, {
    launcher,
    cwd: repoRoot,
    ready: /Prism is listening on (http:\/\/\S+)/,
    timeoutMs: 30_000,
    what: "The Prism mock",
  });
}
