import type { Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { emptyProse, stubModule } from "../../bench/lib/bundle-probes.ts";
import { bundle, CLIENT_APP } from "../../scripts/lib/bundle-size.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";

/** The client app's bundle as text, openapi-fetch left out (it has strings of its own, such as encodeURIComponent). */
async function bundled(plugins: Plugin[] = []): Promise<string> {
  return new TextDecoder().decode(await bundle(CLIENT_APP, { plugins, external: ["openapi-fetch"] }));
}

// The bench's "of which" rows are only as true as these probes: a probe that matched no file would report 0 bytes.
describe("the bench's size probes", { timeout: 30_000 }, () => {
  it("stubModule takes out exactly that module, and the bundle still links", async () => {
    const whole = await bundled();
    const without = await bundled([stubModule(fromRoot("src/retry.ts"))]);
    expect(whole).toContain("retry-after-ms");
    expect(without).not.toContain("retry-after-ms");
    expect(without).toContain("could not reach the File Library");
    expect(without.length).toBeLessThan(whole.length);
  });

  it("emptyProse empties the messages' text, keeping short strings and the expressions inside templates", async () => {
    const without = await bundled([emptyProse(fromRoot("src/"))]);
    expect(without).not.toContain("could not reach the File Library");
    expect(without).not.toContain("needs an object such as");
    expect(without).toContain("x-request-id");
    expect(without).toContain("encodeURIComponent");
  });
});
