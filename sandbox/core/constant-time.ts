const encoder = new TextEncoder();

/**
 * Whether two strings are equal, in a time that depends on the expected one's length only: never on where, or
 * whether, they differ. (node:crypto's timingSafeEqual is not there in browsers and workers.)
 */
export function constantTimeEqual(given: string, expected: string): boolean {
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i % Math.max(a.length, 1)] ?? 0) ^ b[i]!;
  return difference === 0;
}
