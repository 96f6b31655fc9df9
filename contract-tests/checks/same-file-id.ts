import { isUuid } from "../inputs/near-ids.ts";

/**
 * Whether two spellings of a file id name the same file. The spec keeps the id a string and compares it exactly;
 * a UUID in RFC 9562's textual form (8-4-4-4-12 hex digits, any version) is compared without regard to letter case,
 * as RFC 9562 compares UUIDs, so another case of one is the same file (docs/decisions.md, D04).
 */

/** The id as files are told apart: lower-cased when it is a UUID, else as it is spelt. */
export const fileIdKey = (id: string): string => (isUuid(id) ? id.toLowerCase() : id);

/** Whether `a` and `b` name the same file: equal, or the same UUID in another letter case. */
// Stryker disable next-line ConditionalExpression: equivalent; fileIdKey is a function of its argument alone, so equal ids have equal keys
export const sameFileId = (a: string, b: string): boolean => a === b || fileIdKey(a) === fileIdKey(b);
