/**
 * The file id of the spec's `quarterlyReport` example, the one its named examples pair on (the sandbox's demo data
 * holds that file); else the first id the spec names; else "file_1".
 */
export function exampleFileId(document: unknown): string {
  const parameter = (
    document as { components?: { parameters?: { FileId?: { examples?: Record<string, { value?: unknown }> } } } }
  ).components?.parameters?.FileId;
  const examples = parameter?.examples ?? {};
  const value = (examples.quarterlyReport ?? Object.values(examples)[0])?.value;
  return typeof value === "string" && value !== "" ? value : "file_1";
}
