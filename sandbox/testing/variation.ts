import { chain, type Wrapper } from "../fault-layer.ts";
import type { KeepAlivePolicy } from "../keep-alive.ts";
import { faults, legitimateVariants, type Variation } from "./faults.ts";

/** Which fault and which legitimate variant a sandbox plays: either, both (the fault wraps the service first) or neither. */
export interface VariationNames {
  /** A name of `faults`. */
  fault?: string | undefined;
  /** A name of `legitimateVariants`. */
  variant?: string | undefined;
}

/** The part of `startSandbox`'s config that makes a sandbox play them: spread it into the config. */
export interface VariationSettings {
  wrap?: Wrapper;
  keepAlive?: KeepAlivePolicy;
}

function pick(table: Record<string, Variation>, name: string | undefined, kind: string): Variation[] {
  if (name === undefined) return [];
  if (!Object.hasOwn(table, name))
    throw new Error(`Unknown ${kind} ${JSON.stringify(name)}; known: ${Object.keys(table).join(", ")}.`);
  return [table[name]!];
}

/**
 * The settings of a sandbox that plays the fault and the variant named: `startSandbox({ apiKey, ...variation({ fault:
 * "unknown-id-404" }) })`. Each sandbox started with them gets wrappers of its own (a counting one starts from zero).
 * An unknown name throws, naming the known ones.
 */
export function variation({ fault, variant }: VariationNames): VariationSettings {
  const picked = [...pick(faults, fault, "fault"), ...pick(legitimateVariants, variant, "variant")];
  if (picked.length === 0) return {};
  const keepAlive = picked.findLast((v) => v.keepAlive)?.keepAlive;
  return {
    wrap: (service, context) => chain(...picked.map((v) => v.wrapper()))(service, context),
    ...(keepAlive && { keepAlive }),
  };
}
