/** vitest's global setup for test/: bundles the spec when dist/ has none, or an older one, so that `npm run test:unit` works right after `npm ci`. */
import { ensureBundledSpec } from "../../scripts/lib/build-spec.ts";

export default async function setup(): Promise<void> {
  const result = await ensureBundledSpec();
  if (result && !result.ok) throw new Error(result.message);
}
