import { copyFile, mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { runCommand } from "../../lib/process.ts";
import { bin, fromRoot, generatedTypes, repoRoot } from "./paths.ts";

/** Compiles the client (src/) into `outDir`: ESM JavaScript, .d.ts, and the generated types beside them. */
export async function buildClient(outDir: string): Promise<{ ok: boolean; message: string }> {
  // Remove the modules of an older build, so that none ships (a bundled spec or docs beside them stay).
  const old = (await readdir(outDir).catch(() => [] as string[])).filter((f) => f.endsWith(".js") || f.endsWith(".d.ts") || f === "generated");
  await Promise.all(old.map((f) => rm(path.join(outDir, f), { recursive: true, force: true })));
  const compiled = await runCommand(bin("tsc"), ["-p", fromRoot("tsconfig.build.json"), "--outDir", outDir], { cwd: repoRoot });
  if (compiled.code !== 0) return { ok: false, message: `${compiled.output}\nbuild failed: tsc could not compile src/.` };
  // tsc does not copy .d.ts sources: the generated types go next to the code that imports them.
  await mkdir(path.join(outDir, "generated"), { recursive: true });
  await copyFile(generatedTypes, path.join(outDir, "generated", "schema.d.ts"));
  return { ok: true, message: `Built ${path.relative(repoRoot, outDir) || outDir}: index.js, index.d.ts and their modules, generated/schema.d.ts.` };
}
