import { count } from "./progress.ts";

/**
 * Measures every variant once per round, in an order rotated each round, so that drift in the machine's state hits
 * every variant alike; resolves with each variant's samples, by name, in round order.
 */
export async function interleaved<V extends { name: string }, S>(
  variants: V[],
  rounds: number,
  measure: (variant: V) => Promise<S>,
): Promise<Map<string, S[]>> {
  const samples = new Map(variants.map((v) => [v.name, [] as S[]]));
  for (let round = 0; round < rounds; round++) {
    for (const v of variants.map((_, i) => variants[(i + round) % variants.length]!))
      samples.get(v.name)!.push(await measure(v));
    count(round + 1, rounds);
  }
  return samples;
}

/** Two variants' samples combined round by round (a / b unless told otherwise): one ratio per round, side by side. */
export const byRound = (a: number[], b: number[], combine = (x: number, y: number) => x / y): number[] =>
  a.map((x, round) => combine(x, b[round]!));
