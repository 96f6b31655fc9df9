/** Whether a parsed JSON value is an object with members: not null, not a list. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && !Array.isArray(value);
