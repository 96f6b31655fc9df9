/**
 * The update bodies the service's official SDKs send, exactly (docs/decisions.md, D05): a run with write
 * checks sends each, whatever the seed, and a server must take each with 200.
 * - The TypeScript SDK (npm `ai21` 1.1.0, `files.update(body)`) PUTs its whole argument: `fileId` always, a field
 *   given as `null` as `null`, one left `undefined` not at all.
 * - The Python SDK (`AI21Labs/ai21-python`, `studio_library.py`) 1.0.0 to 2.2.4 sends `{"publicUrl": ..., "labels": ...}`
 *   with `null` for the one not given; later versions leave out what is not given and send `null` for an explicit `None`.
 * - `www.example.com` is the URL of the service's own documented example (`public_url="www.example.com"`).
 */

/** One body, and the call that sends it, for the summary's count. */
export interface SdkUpdateBody {
  json: Record<string, unknown>;
  sender: string;
}

/** The service's documented example of a publicUrl: no scheme, which the service does not validate. */
export const DOCUMENTED_PUBLIC_URL = "www.example.com";

/**
 * The SDKs' bodies for the file `fileId`, setting `labels`: those that leave publicUrl as it is, always; those that
 * set it (to `publicUrl`, and to the documented example), only when `publicUrl` is given: the run sets a publicUrl
 * only where it can put the file's own back.
 */
export function sdkUpdateBodies(fileId: string, labels: string[], publicUrl?: string): SdkUpdateBody[] {
  const bodies: SdkUpdateBody[] = [
    { json: { fileId, labels }, sender: "the TypeScript SDK's files.update({ fileId, labels })" },
    {
      json: { fileId, labels, publicUrl: null },
      sender: "the TypeScript SDK's files.update({ fileId, labels, publicUrl: null })",
    },
    {
      json: { publicUrl: null, labels },
      sender: "the Python SDK's files.update(id, labels=...) 1.0.0 to 2.2.4, or with public_url=None later",
    },
    {
      json: { publicUrl: null, labels: null },
      sender: "the Python SDK's files.update(id, public_url=None, labels=None) after 2.4",
    },
  ];
  if (publicUrl === undefined) return bodies;
  return [
    ...bodies,
    { json: { fileId, labels, publicUrl }, sender: "the TypeScript SDK's files.update({ fileId, labels, publicUrl })" },
    {
      json: { fileId, labels: null, publicUrl },
      sender: "the TypeScript SDK's files.update({ fileId, labels: null, publicUrl })",
    },
    {
      json: { publicUrl: DOCUMENTED_PUBLIC_URL, labels: null },
      sender: `the Python SDK's files.update(id, public_url="${DOCUMENTED_PUBLIC_URL}") 1.0.0 to 2.2.4`,
    },
    {
      json: { publicUrl: DOCUMENTED_PUBLIC_URL },
      sender: `the Python SDK's files.update(id, public_url="${DOCUMENTED_PUBLIC_URL}") after 2.4`,
    },
  ];
}
