import { startServer, type ServerProcess } from "../../lib/process.ts";
import { bin, repoRoot } from "./paths.ts";

/** Starts `prism mock` of a spec on a free loopback port (port 0) and resolves once it listens. */
export function startPrism(specFile: string): Promise<ServerProcess> {
  return startServer(bin("prism"), ["mock", "--host", "127.0.0.1", "--port", "0", specFile], {
    cwd: repoRoot,
    ready: /Prism is listening on (http:\/\/\S+)/,
    timeoutMs: 30_000,
    what: "The Prism mock",
  });
}
