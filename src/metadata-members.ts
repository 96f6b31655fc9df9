import { oneLine } from "./excerpt.js";
import type { components } from "./generated/schema.js";

type Member = keyof components["schemas"]["FileMetadata"];

/** The members the spec requires of FileMetadata; a type test (test/client/metadata-members.test.ts) keeps it equal to the spec's list. */
export const REQUIRED_MEMBERS = ["id", "name", "size", "created_at", "labels"] as const satisfies readonly Member[];

/** The members the spec names without requiring them; the same type test keeps it equal to the spec's. */
export const OPTIONAL_MEMBERS = ["publicUrl", "errorCode", "errorMessage"] as const satisfies readonly Member[];

/** How many of an answer's member names a message shows. */
export const SHOWN_MEMBERS = 5;

/** Metadata without members the spec requires: which, and the sentence saying so (a failed read of the body). */
export interface MissingMembers {
  ok: false;
  /** The spec's required members the answer lacks. */
  missing: string[];
  /** "the answer has fileId, fileType, … and not id, size, created_at". */
  problem: string;
}

/**
 * What a metadata object lacks of the members the spec requires, named with the members it has instead: those the spec
 * does not name (else all of them), at most SHOWN_MEMBERS, and only names, never a value (a value may be a secret).
 */
export function missingMembers(metadata: object): MissingMembers | undefined {
  const missing = REQUIRED_MEMBERS.filter((name) => !(name in metadata));
  if (!missing[0]) return undefined;
  const names = Object.keys(metadata);
  const others = names.filter(
    (name) => !(REQUIRED_MEMBERS as readonly string[]).concat(OPTIONAL_MEMBERS).includes(name),
  );
  const shown = others.length ? others : names;
  const list = shown.slice(0, SHOWN_MEMBERS).join(", ") + (shown.length > SHOWN_MEMBERS ? ", …" : "");
  // oneLine: a name may be long, or hold a newline or a control character.
  return {
    ok: false,
    missing,
    problem: `the answer has ${oneLine(list, 200) || "no members"} and not ${missing.join(", ")}`,
  };
}
