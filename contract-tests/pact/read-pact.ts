import { readFile, stat } from "node:fs/promises";
import { MAX_HAR_BYTES } from "../recording/read-recording.ts";
import { jsonErrorOffset } from "./json-error-offset.ts";

/** A Pact file cannot be read: one line naming the file and the line or member at fault. */
export class PactFileError extends Error {
  override name = "PactFileError";
}

/** A pact is one JSON document, read whole, as a HAR is: larger ones are refused (the recording reader's bound). */
export const MAX_PACT_BYTES = MAX_HAR_BYTES;

/** One side of an interaction, whatever the specification version wrote: headers lower-cased, the body's example as text. */
export interface PactMessage {
  headers: Record<string, string>;
  /** The body as the wire would carry it (JSON serialised), or undefined when the pact gives none. */
  body: string | undefined;
  /** The media type the pact gives the body (its Content-Type header, V4's contentType, else JSON for a JSON value). */
  contentType: string | undefined;
}

/** One HTTP interaction of a pact, its matchers' examples standing for their values. */
export interface PactInteraction {
  /** Its place in the file's interactions, from 0. */
  index: number;
  description: string;
  states: string[];
  request: PactMessage & { method: string; path: string; query: string };
  response: PactMessage & { status: number };
}

/** A pact as read: its parties, the specification it says it follows, its HTTP interactions, and what was not judged. */
export interface ReadPact {
  consumer: string;
  provider: string;
  /** "2.0.0", "3.0.0", "4.0"..., or "unstated". */
  specification: string;
  interactions: PactInteraction[];
  /** Interactions that are not HTTP (V4 messages): named, not judged. */
  notHttp: string[];
}

/**
 * Reads a Pact file of specification 2, 3 or 4 as pact-js, the Pact core and the MSW adapter write them. Throws
 * PactFileError naming the line and column of JSON that does not parse (JSON.parse gives only an offset, when that),
 * or the member (`interactions[2].request.method`) that is missing or of the wrong kind.
 */
export async function readPact(file: string): Promise<ReadPact> {
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new PactFileError(
      `cannot read the pact ${JSON.stringify(file)}: ${error.code === "ENOENT" ? "no such file" : error.message}`,
    );
  });
  if (!info.isFile()) throw new PactFileError(`the pact ${JSON.stringify(file)} is not a file`);
  // Sized before it is read: a larger file is refused without a byte of it in memory.
  if (info.size > MAX_PACT_BYTES)
    throw new PactFileError(
      `the pact ${JSON.stringify(file)} is ${info.size} bytes, over the ${MAX_PACT_BYTES} (256 MiB) a pact is read whole up to: split its interactions over smaller pacts and check each`,
    );
  const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const { line, column } = whereParsingStopped(text);
    throw new PactFileError(
      `${file}:${line}:${column}: not JSON: ${oneLine((error as Error).message.replace(/ in JSON at position \d+.*$/, ""))}`,
    );
  }
  return pactOf(document, file);
}

/** The line and column (from 1) where text that JSON.parse refused stops being JSON. */
export function whereParsingStopped(text: string): { line: number; column: number } {
  const offset = jsonErrorOffset(text);
  const before = text.slice(0, offset < 0 ? text.length : offset);
  const line = before.split("\n").length;
  return { line, column: before.length - before.lastIndexOf("\n") };
}

/** V8's message quotes the text around the error, newlines and all: one line of at most 120 characters. */
const oneLine = (message: string) => {
  const flat = message.replace(/\s+/g, " ");
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function pactOf(document: unknown, file: string): ReadPact {
  const fail = (member: string, problem: string): never => {
    throw new PactFileError(`${file}: ${member} ${problem}: this is no Pact file of specification 2 to 4`);
  };
  if (!isObject(document)) return fail("the document", "is not a JSON object");
  const name = (member: "consumer" | "provider") => {
    const party = document[member];
    return isObject(party) && typeof party.name === "string"
      ? party.name
      : fail(`${member}.name`, "is missing or not a string");
  };
  const [consumer, provider] = [name("consumer"), name("provider")];
  const metadata = isObject(document.metadata) ? document.metadata : {};
  const stated = metadata.pactSpecification ?? metadata["pact-specification"] ?? metadata.pactSpecificationVersion;
  const specification =
    isObject(stated) && typeof stated.version === "string"
      ? stated.version
      : typeof stated === "string"
        ? stated
        : "unstated";
  if (!Array.isArray(document.interactions)) return fail("interactions", "is missing or not an array");
  const interactions: PactInteraction[] = [];
  const notHttp: string[] = [];
  for (const [index, raw] of (document.interactions as unknown[]).entries()) {
    const at = `interactions[${index}]`;
    if (!isObject(raw)) return fail(at, "is not an object");
    if (typeof raw.description !== "string") return fail(`${at}.description`, "is missing or not a string");
    if (raw.type !== undefined && raw.type !== "Synchronous/HTTP") {
      notHttp.push(`${raw.description} (${String(raw.type)})`);
      continue;
    }
    interactions.push(interactionOf(raw, index, at, fail));
  }
  return { consumer, provider, specification, interactions, notHttp };
}

function interactionOf(
  raw: Json,
  index: number,
  at: string,
  fail: (member: string, problem: string) => never,
): PactInteraction {
  const { request, response } = raw;
  if (!isObject(request)) return fail(`${at}.request`, "is missing or not an object");
  if (!isObject(response)) return fail(`${at}.response`, "is missing or not an object");
  if (typeof request.method !== "string") return fail(`${at}.request.method`, "is missing or not a string");
  if (typeof request.path !== "string" || !request.path.startsWith("/"))
    return fail(`${at}.request.path`, "is missing or not a path");
  if (!Number.isInteger(response.status)) return fail(`${at}.response.status`, "is missing or not a whole number");
  const states = Array.isArray(raw.providerStates)
    ? raw.providerStates.map((state, n) =>
        isObject(state) && typeof state.name === "string"
          ? state.name
          : fail(`${at}.providerStates[${n}].name`, "is missing or not a string"),
      )
    : typeof raw.providerState === "string"
      ? [raw.providerState]
      : [];
  return {
    index,
    description: raw.description as string,
    states,
    request: {
      method: request.method.toUpperCase(),
      path: request.path,
      query: queryOf(request.query, `${at}.request.query`, fail),
      ...messageOf(request, `${at}.request`, fail),
    },
    response: { status: response.status as number, ...messageOf(response, `${at}.response`, fail) },
  };
}

/** A query as text: V2 wrote it as a string, V3 and V4 as names to lists of values. */
function queryOf(query: unknown, at: string, fail: (member: string, problem: string) => never): string {
  if (query === undefined || query === null) return "";
  if (typeof query === "string") return query;
  if (!isObject(query)) return fail(at, "is neither a string nor an object");
  const search = new URLSearchParams();
  for (const [name, values] of Object.entries(query))
    for (const value of Array.isArray(values) ? values : [values]) search.append(name, String(value));
  return search.toString();
}

/** Headers and body of one side: V4's headers are lists and its body is `{ content, contentType, encoded }`. */
function messageOf(side: Json, at: string, fail: (member: string, problem: string) => never): PactMessage {
  const headers: Record<string, string> = {};
  if (side.headers !== undefined && side.headers !== null) {
    if (!isObject(side.headers)) return fail(`${at}.headers`, "is not an object");
    for (const [name, value] of Object.entries(side.headers))
      headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String).join(", ") : String(value);
  }
  let content: unknown = side.body;
  let contentType = headers["content-type"];
  let encoded: unknown = false;
  if (isObject(side.body) && "content" in side.body && ("contentType" in side.body || "encoded" in side.body)) {
    ({ content, encoded } = side.body);
    contentType ??= typeof side.body.contentType === "string" ? side.body.contentType : undefined;
  }
  if (content === undefined) return { headers, body: undefined, contentType };
  if (encoded === "base64" || encoded === true) {
    if (typeof content !== "string") return fail(`${at}.body.content`, "is encoded but not a string");
    return { headers, body: Buffer.from(content, "base64").toString("utf8"), contentType };
  }
  if (typeof content === "string" && !/json/i.test(contentType ?? ""))
    return { headers, body: content, contentType: contentType ?? "text/plain" };
  return { headers, body: JSON.stringify(content), contentType: contentType ?? "application/json" };
}
