/** The first line at which two texts differ, 1-based, with both versions of that line. */
export function firstDifference(actual: string, expected: string): { line: number; actual: string; expected: string } {
  const a = actual.split("\n");
  const e = expected.split("\n");
  const length = Math.max(a.length, e.length);
  for (let i = 0; i < length; i++) {
    if (a[i] !== e[i]) {
      return { line: i + 1, actual: a[i] ?? "<end of file>", expected: e[i] ?? "<end of file>" };
    }
  }
  return { line: 0, actual: "", expected: "" };
}
