const encoder = new TextEncoder();

/**
 * A test of strings against `expected`, in a time that depends on the expected one's length only: never on where,
 * or whether, they differ. (node:crypto's timingSafeEqual is not there in browsers and workers.) `expected` is
 * encoded once.
 */
export function constantTimeEquals(expected: string): (given: string) => boolean {
  const b = encoder.encode(expected);
  return (given) => {
    const a = encoder.encode(given);
    let difference = a.length ^ b.length;
    for (let i = 0; i < b.length; i++) difference |= (a[i % Math.max(a.length, 1)] ?? 0) ^ b[i]!;
    return difference === 0;
  };
}

/** Whether two strings are equal, in a time that depends on the expected one's length only. */
export const constantTimeEqual = (given: string, expected: string): boolean => constantTimeEquals(expected)(given);
