/** vitest's global setup for test/: bundles the spec when dist/ has none, or an older one, so that `npm run test:unit` works right after `npm ci`. */
import { buildSpec, bundleIsFresh } from "../../scripts/lib/build-spec.ts";

export default async function setup(): Promise<void> {
  if (await bundleIsFresh()) return;
  const { ok, message } = await buildSpec();
  if (!ok) throw new Error(message);
}
