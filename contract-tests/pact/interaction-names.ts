/**
 * What a pact calls an exported interaction: its description (the operation and what the app did) and its provider
 * state (the file it needs). Pact tells interactions apart by description and states together, so `NameBook` numbers
 * a description that would repeat.
 */

/** A provider state as Pact writes it (specification 3 and 4): a name, and its parameters. */
export interface ProviderState {
  name: string;
  params: Record<string, string>;
}

/** What the app did, in words: "get file metadata", "update labels", "update publicUrl and labels", "get a download URL". */
export function describeRequest(operation: string, json: unknown, status: number, unknownId: boolean): string {
  const what =
    operation === "getFile"
      ? "get file metadata"
      : operation === "getFileDownloadUrl"
        ? "get a download URL"
        : operation === "updateFile"
          ? `update ${fieldsOf(json)}`
          : operation;
  if (unknownId) return `${what} of a file that does not exist`;
  return status >= 400 ? `${what}, refused with HTTP ${status}` : what;
}

/** The members an update sets, joined in one order whatever order the app sent them in ("publicUrl and labels"), or what else the body is. */
function fieldsOf(json: unknown): string {
  if (json === undefined) return "with no body";
  if (json === null || typeof json !== "object" || Array.isArray(json)) return "with a body that is no object";
  const names = Object.keys(json).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? 1 : -1));
  if (names.length === 0) return "nothing";
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}`;
}

/** The state the interaction needs: the file of its path exists, or (an unknown id's 422) does not. */
export function providerState(fileId: string, unknownId: boolean): ProviderState {
  return unknownId
    ? { name: `no file with id ${fileId} exists`, params: { file_id: fileId } }
    : { name: `a file with id ${fileId} exists`, params: { file_id: fileId } };
}

/** Hands out descriptions no two of which repeat with the same state: the second "update labels" is "update labels (2)". */
export class NameBook {
  private readonly used = new Map<string, number>();

  /** The description to use for `description` under `state`, numbered from the second one on. */
  take(description: string, state: ProviderState): string {
    const key = JSON.stringify([description, state.name]);
    const count = (this.used.get(key) ?? 0) + 1;
    this.used.set(key, count);
    return count === 1 ? description : `${description} (${count})`;
  }
}
