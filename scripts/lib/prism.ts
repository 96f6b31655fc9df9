import { startServer, type ServerProcess } from "../../lib/process.ts";
import { bin, fromRoot, repoRoot } from "./paths.ts";

/**
 * Starts `prism mock` of a spec (or `prism proxy` to an upstream) on a loopback port (default 0: a free one) and resolves once
 * it listens; `launcher` as for startServer. Prism runs with faker's English-only instance (prism-faker-en.cjs: a second
 * faster start) and with postman-collection loaded only if used (prism-lazy-postman.cjs: never, for OpenAPI).
 */
export function startPrism(
  specFile: string,
  launcher: string[] = [],
  { proxyTo, port = 0 }: { proxyTo?: string; port?: number } = {},
): Promise<ServerProcess> {
  const listen = ["--host", "127.0.0.1", "--port", String(port)];
  // `prism proxy` forwards to the upstream and validates each exchange against the spec (the bench compares ours with it).
  const mode = proxyTo === undefined ? ["mock", ...listen, specFile] : ["proxy", ...listen, specFile, proxyTo];
  const preloads = ["prism-faker-en.cjs", "prism-lazy-postman.cjs"].flatMap((file) => [
    "--require",
    fromRoot("scripts/lib", file),
  ]);
  const args = [...preloads, bin("prism"), ...mode];
  return startServer(process.execPath, args, {
    launcher,
    cwd: repoRoot,
    ready: /Prism is listening on (http:\/\/\S+)/,
    timeoutMs: 30_000,
    what: proxyTo === undefined ? "The Prism mock" : "Prism's proxy",
  });
}
