import { build } from "esbuild";
import path from "node:path";
import { NODE_PACKAGE_BUILD } from "../../lib/node-package-build.ts";
import { runCommand } from "../../lib/process.ts";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";

/** The JavaScript files the proxy bench runs with plain node: the kit's servers as users run them. */
export interface BuiltServers {
  /** The contract package's CLI (`file-library-contract`), as `npm run build:contract` builds it. */
  contractCli: string;
  /** The sandbox package's bin, as `npm run build:sandbox` builds it. */
  sandbox: string;
  /** The bench's relay (bench/relay-server.ts), bundled as the packages are. */
  relay: string;
}

/**
 * Builds the contract package, the sandbox package and the relay, so that the proxy bench measures what users run:
 * the packages' JavaScript under node, not the sources under tsx, whose wrappers (its `keepNames`) cost code that
 * makes many small functions, the judges among them, a few percent more than the built packages do.
 */
export async function buildServers(): Promise<BuiltServers> {
  for (const script of ["scripts/build-contract.ts", "scripts/build-sandbox.ts"]) {
    const built = await runCommand(process.execPath, ["--import", "tsx", fromRoot(script)], { cwd: repoRoot });
    if (built.code !== 0) throw new Error(`bench: ${script} failed:\n${built.output}`);
  }
  // Inside the repository, so that the relay's npm imports (undici) resolve from its node_modules.
  const outdir = fromRoot("node_modules", ".cache", "file-library-kit", "bench-relay");
  await build({ ...NODE_PACKAGE_BUILD, entryPoints: [fromRoot("bench", "relay-server.ts")], outdir });
  return {
    contractCli: fromRoot("contract-tests", "dist", "cli.js"),
    sandbox: fromRoot("sandbox", "dist", "main.js"),
    relay: path.join(outdir, "relay-server.js"),
  };
}
