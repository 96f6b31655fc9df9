// Packs each of the three published packages once per test run, for every test that installs one (the consumers'
// tests, the docs' samples): packing builds the package first (its prepack script is its build), which is the slow
// part, and two packs at once would write the same folders. The packs run in a copy of the repository with no build
// output, as a fresh clone right after `npm ci` has: each build's output is kept beside its tarball (`packOutput`),
// and test/repo/readme-commands.test.ts reads there that the three builds work from nothing. Vitest's global setup
// (this file's default export) serves the tarballs from the main process, which packs each on the first request and
// one at a time; the test files ask for them with `packed(name)` (test/support/packed.ts).
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { runCommand } from "../../lib/process.ts";
import { NODE_LINES, registryNode } from "../../scripts/lib/registry-node.ts";
import { copyOfRepo } from "./repo-copy.ts";

/** The three packages, by the short name the tests use, and the npm workspace each is packed from (none: the root). */
export const PACKAGES = { client: undefined, contract: "contract-tests", sandbox: "sandbox" } as const;
export type PackageName = keyof typeof PACKAGES;

declare module "vitest" {
  export interface ProvidedContext {
    /** The URL of the global setup's pack service; absent under a config without it. */
    packService?: string;
  }
}

/** The build output of the three packages, none of which a pack starts from. */
const BUILD_OUTPUT = ["dist", "contract-tests/dist", "sandbox/dist"];
/** The first line of a pack's output file: where it was packed. */
export const PACKED_IN = "packed in the copy ";

/** What packing a package printed (its prepack script's build among it), in the file beside its tarball. */
export const packOutput = (tarball: string): string => path.join(path.dirname(tarball), "pack-output.txt");

/**
 * Packs one package of the repository copy `root` into a new folder under `parent` (its prepack script builds it
 * first); resolves with the tarball, whose folder also holds what the pack printed.
 */
async function packInto(parent: string, root: string, name: PackageName): Promise<string> {
  const workspace = PACKAGES[name];
  const destination = await mkdtemp(path.join(parent, `${name}-`));
  // Each from nothing: the pack before it built into the same copy.
  await Promise.all(BUILD_OUTPUT.map((folder) => rm(path.join(root, folder), { recursive: true, force: true })));
  const args = [
    "pack",
    ...(workspace ? ["--workspace", workspace] : []),
    "--pack-destination",
    destination,
    "--silent",
  ];
  const { code, output } = await runCommand("npm", args, { cwd: root });
  if (code !== 0) throw new Error(`npm ${args.join(" ")} exited ${code}:\n${output}`);
  await writeFile(
    path.join(destination, "pack-output.txt"),
    `${PACKED_IN}${root}, with no ${BUILD_OUTPUT.join(", ")}\n${output}`,
  );
  const tarballs = (await readdir(destination)).filter((file) => file.endsWith(".tgz"));
  if (tarballs.length !== 1) throw new Error(`npm pack of ${name} left ${tarballs.length} tarballs in ${destination}`);
  return path.join(destination, tarballs[0]!);
}

/** Each package packed at most once, on demand and one at a time, into `parent`, from one copy of the repository made there. */
export function packOnce(parent: string): (name: PackageName) => Promise<string> {
  const tarballs = new Map<PackageName, Promise<string>>();
  let copy: Promise<string> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  return (name) => {
    if (!tarballs.has(name)) {
      const tarball = queue.then(async () => packInto(parent, await (copy ??= copyOfRepo("repo-", parent)), name));
      queue = tarball.catch(() => undefined);
      tarballs.set(name, tarball);
    }
    return tarballs.get(name)!;
  };
}

/** Vitest's global setup: starts the pack service on a free port of 127.0.0.1; its teardown stops it and deletes the tarballs. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "file-library-packed-"));
  const packOne = packOnce(folder);
  // The Node lines other than this one (test/consumers/node-lines.test.ts), fetched from the npm registry while the
  // packs build, once a test asks for a pack: a download waits on the network, a pack on the CPU. The test asks here
  // (`/node/VERSION`) before it takes its Node from the cache; a run of other tests fetches none.
  let lines: Map<string, Promise<string>> | undefined;
  const fetchLines = () =>
    (lines ??= new Map(
      NODE_LINES.filter((version) => process.version !== `v${version}`).map((version) => [
        version,
        registryNode(version).then(
          () => "",
          (error: Error) => error.message,
        ),
      ]),
    ));
  const pack = (name: PackageName) => (fetchLines(), packOne(name));
  const server = createServer((request, response) => {
    const name = decodeURIComponent(request.url!.slice(1));
    if (name.startsWith("node/")) {
      const version = name.slice("node/".length);
      const fetched = fetchLines().get(version);
      if (!fetched)
        response
          .writeHead(404)
          .end(`no Node line ${version} to fetch; the others than this one are ${[...fetchLines().keys()].join(", ")}`);
      else void fetched.then((problem) => response.writeHead(problem ? 500 : 200).end(problem));
      return;
    }
    if (!Object.hasOwn(PACKAGES, name)) {
      response.writeHead(404).end(`no package ${name}; the packages are ${Object.keys(PACKAGES).join(", ")}`);
      return;
    }
    pack(name as PackageName).then(
      (tarball) => response.writeHead(200).end(tarball),
      (error: Error) => response.writeHead(500).end(error.message),
    );
  });
  // A pack takes a minute or more: no timeout of node:http's may cut the answer short.
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("packService", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return async () => {
    await Promise.all(lines?.values() ?? []);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(folder, { recursive: true, force: true });
  };
}
