import { bearerToken } from "../../lib/bearer-token.ts";
import { CONTENT_PATH_PREFIX } from "../core/signed-urls.ts";
import type { KeepAlivePolicy } from "../keep-alive.ts";
import {
  emptyAnswer,
  errorAnswer,
  errorCodeOf,
  jsonAnswer,
  jsonOf,
  type PlainAnswer,
  type PlainRequest,
} from "../core/plain.ts";
import {
  acceptsInvalidBody,
  answers,
  download,
  isUnknownId,
  metadata,
  metadataVia,
  requests,
  validUpdate,
  withJson,
  withJsonBody,
  withKey,
  type Tools,
  type Wrapper,
} from "../fault-layer.ts";

/** A named way for the sandbox to behave differently, for tests of contract checkers only. */
export interface Variation {
  description: string;
  /** Made anew for each service it wraps: a wrapper that counts requests starts from zero. */
  wrapper: () => Wrapper;
  /** How a sandbox that listens keeps idle connections, where the variation is about that. */
  keepAlive?: KeepAlivePolicy;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** One row of the tables below: what the variation does, in words, and the wrapper that does it. */
const variation = (
  description: string,
  wrapper: () => Wrapper,
  server: Pick<Variation, "keepAlive"> = {},
): Variation => ({ description, wrapper, ...server });

/** The status of the unknown-id answer changed, for the ids `applies` picks. */
const unknownIdStatus = (status: number, applies: (fileId: string) => boolean = () => true) =>
  answers((answer, _request, { call }) =>
    isUnknownId(answer) && call && applies(call.fileId) ? { ...answer, status } : answer,
  );

/** The body of the unknown-id answer replaced. */
const unknownIdBody = (body: (fileId: string) => unknown) =>
  answers((answer, _request, { call }) => (isUnknownId(answer) && call ? withJson(answer, body(call.fileId)) : answer));

/** Every `every`th request (counting those `counts` picks) answered by `answer` instead of the service. */
const everyNth = (every: number, counts: (connectionRequests: number) => boolean, answer: () => PlainAnswer) => () => {
  let seen = 0;
  return requests((request) => (counts(request.connectionRequests) && ++seen % every === 0 ? answer() : request));
};

/** The body of every successful getFile replaced by bytes made from its metadata (for faults JSON.stringify cannot make). */
const metadataBody = (body: (file: Record<string, unknown>) => string | Uint8Array) =>
  answers((answer, _request, { call }) =>
    call?.operationId === "getFile" && answer.status === 200
      ? { ...answer, body: body(jsonOf(answer.body) as Record<string, unknown>) }
      : answer,
  );

/** A lookup that is not exact: the file id of each call is folded (as a collation, a trim or a second decode would) first. */
const lenientLookup = (fold: (fileId: string) => string) =>
  requests((request, { call }) => {
    if (!call) return request;
    const [path = "", query] = request.target.split("?");
    const segments = path.split("/");
    // /studio/v1/library/files/{file_id}[/download]: the id is the sixth segment.
    segments[5] = encodeURIComponent(fold(call.fileId));
    return { ...request, target: `${segments.join("/")}${query === undefined ? "" : `?${query}`}` };
  });

/** JSON text as ISO-8859-1 bytes, one per character; what that charset cannot hold is written as a JSON escape (`\u65e5`). */
const latin1Json = (text: string) =>
  Uint8Array.from(
    text.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    (c) => c.charCodeAt(0),
  );

/** The file id a signed content URL serves, or undefined for any other target. */
const contentFileId = (target: string): string | undefined => {
  if (!target.startsWith(CONTENT_PATH_PREFIX)) return undefined;
  try {
    return decodeURIComponent(target.slice(CONTENT_PATH_PREFIX.length).split("?")[0]!);
  } catch {
    return undefined;
  }
};

/** A valid update's body changed before the service sees it. */
const validUpdateBody = (change: (body: Record<string, unknown>, tools: Tools, request: PlainRequest) => unknown) =>
  requests(async (request, tools) => {
    const body = validUpdate(request, tools);
    return body ? withJsonBody(request, await change(body, tools, request)) : request;
  });

/**
 * Every fault (`variation({ fault: NAME })`): each breaks the contract differently. Which checks of the contract suite must
 * catch each one is the suite's tests' claim, kept beside them (test/fixtures/fault-expectations.ts).
 */
export const faults = {
  "unknown-id-404": variation("an unknown id gets 404 instead of 422", () => unknownIdStatus(404)),
  "unknown-id-created-on-update": variation("an update of an unknown id succeeds instead of getting 422", () =>
    answers((answer, _request, { call }) =>
      call?.operationId === "updateFile" && isUnknownId(answer) ? emptyAnswer(200) : answer,
    ),
  ),
  "file-id-case-insensitive": variation(
    "file ids are looked up without regard to case, as by a case-insensitive collation",
    () => lenientLookup((id) => id.toLowerCase()),
  ),
  "file-id-trimmed": variation("file ids are trimmed before the lookup", () => lenientLookup((id) => id.trim())),
  "file-id-decoded-twice": variation("the file id is percent-decoded a second time, so %64oc-1 finds doc-1", () =>
    lenientLookup((id) => {
      try {
        return decodeURIComponent(id);
      } catch {
        return id;
      }
    }),
  ),
  "file-id-folded": variation(
    "file ids are compared without accents and full-width forms (NFKD, marks dropped, NFKC), as an accent-insensitive collation",
    () => lenientLookup((id) => id.normalize("NFKD").replace(/\p{M}/gu, "").normalize("NFKC")),
  ),
  "awkward-id-404": variation(
    "an unknown id with characters other than letters, digits, - and _ gets 404, as from a router",
    () => unknownIdStatus(404, (fileId) => !/^[A-Za-z0-9_-]+$/.test(fileId)),
  ),
  "unknown-id-error-as-array": variation("the 422 error body is a JSON array, not an object", () =>
    unknownIdBody((fileId) => [`no file ${fileId}`]),
  ),
  "unknown-id-error-over-a-mebibyte": variation(
    "the 422 error body is over 1 MiB (a message of 1.1 million characters)",
    () =>
      unknownIdBody((fileId) => ({ code: "file_not_found", message: `No file ${fileId}. ${"x".repeat(1_100_000)}` })),
  ),
  "metadata-size-as-string": variation("size is sent as a string", () =>
    metadata((file) => ({ ...file, size: String(file.size) })),
  ),
  // JSON.parse keeps the last of the two, so a schema check sees a number; a parser that keeps the first sees a string.
  "metadata-size-repeated": variation(
    'the metadata names size twice, first as a string: {"size":"5", …, "size":5}',
    () => metadataBody((file) => `{"size":${JSON.stringify(String(file.size))},${JSON.stringify(file).slice(1)}`),
  ),
  "metadata-latin1": variation("the metadata is sent as ISO-8859-1, not UTF-8, for a file named Café.pdf", () =>
    metadataBody((file) => latin1Json(JSON.stringify({ ...file, name: "Café.pdf" }))),
  ),
  // A framework that writes its JSON through a UTF-8 writer "with BOM" (.NET's Encoding.UTF8, say): TextDecoder drops it.
  "metadata-with-bom": variation("the metadata starts with a byte-order mark (EF BB BF), which JSON must not", () =>
    metadataBody((file) => `\uFEFF${JSON.stringify(file)}`),
  ),
  "metadata-missing-labels": variation("the required labels field is left out", () =>
    metadata((file) => ({ ...file, labels: undefined })),
  ),
  // Older Jackson versions write the offset without its colon: ISO 8601's basic form, which RFC 3339 does not allow.
  "created-at-offset-without-colon": variation(
    "created_at ends in +0000, an offset without its colon (not RFC 3339)",
    () => metadata((file) => ({ ...file, created_at: String(file.created_at).replace(/Z$/, "+0000") })),
  ),
  // The service's own document has a date (`creationDate`, `format: date`) where the description has a timestamp.
  "created-at-as-date": variation(
    "created_at is a date alone (2026-03-15), as the service's own document has its creationDate",
    () => metadata((file) => ({ ...file, created_at: String(file.created_at).slice(0, 10) })),
  ),
  "metadata-local-time": variation("created_at is in local time (+02:00), not UTC", () =>
    metadata((file) => ({
      ...file,
      created_at: new Date(Date.parse(String(file.created_at)) + 2 * 3600_000)
        .toISOString()
        .replace(/\.\d+Z$|Z$/, "+02:00"),
    })),
  ),
  "update-answers-with-body": variation("a successful update answers with the metadata instead of no body", () =>
    answers(async (answer, request, { call, context, service }) =>
      call?.operationId === "updateFile" && answer.status === 200
        ? jsonAnswer(200, await metadataVia(service, request, context.apiKey, call.fileId))
        : answer,
    ),
  ),
  "metadata-as-text-plain": variation("the metadata is sent as text/plain", () =>
    answers((answer, _request, { call }) =>
      call?.operationId === "getFile" && answer.status === 200
        ? { ...answer, headers: { ...answer.headers, "content-type": "text/plain" } }
        : answer,
    ),
  ),
  "download-as-text-html": variation("the download URL is sent as text/html", () =>
    download((url) => ({ body: url, contentType: "text/html" })),
  ),
  "request-id-with-spaces": variation("x-request-id holds spaces, against its documented pattern", () =>
    answers((answer) => ({
      ...answer,
      headers: { ...answer.headers, "x-request-id": `request ${answer.headers["x-request-id"]}` },
    })),
  ),
  "key-echoed-in-header": variation("every answer echoes the bearer token in a debug header", () =>
    answers((answer, _request, { context }) => ({
      ...answer,
      headers: { ...answer.headers, "x-debug-authorization": `Bearer ${context.apiKey}` },
    })),
  ),
  "server-error-without-key-on-get": variation("getFile without a key fails with 500 instead of 401", () =>
    answers((answer, request, { call }) =>
      call?.operationId === "getFile" &&
      answer.status === 401 &&
      bearerToken(request.headers.authorization) === undefined
        ? { ...answer, status: 500 }
        : answer,
    ),
  ),
  "metadata-wrong-id": variation("the metadata names another id than the one requested", () =>
    metadata((file) => ({ ...file, id: `${String(file.id)}-v2` })),
  ),
  "download-auth-ignored": variation("the download answers without a key", () =>
    requests((request, { call, context }) =>
      call?.operationId === "getFileDownloadUrl" ? withKey(request, context.apiKey) : request,
    ),
  ),
  "update-applied-without-key": variation(
    "an update without the key (or with a wrong one) is applied, though it is answered 401",
    () =>
      requests(async (request, { call, context, service }) => {
        if (call?.operationId === "updateFile" && bearerToken(request.headers.authorization) !== context.apiKey)
          await service(withKey(request, context.apiKey));
        return request;
      }),
  ),
  "any-bearer-passes": variation("any bearer token passes, the key is never compared", () =>
    requests((request, { call, context }) =>
      call && bearerToken(request.headers.authorization) !== undefined ? withKey(request, context.apiKey) : request,
    ),
  ),
  "key-checked-in-part": variation(
    "only the first half of the key is compared, as by a server that checks a key id but not its secret",
    () =>
      requests((request, { call, context }) => {
        const half = context.apiKey.slice(0, Math.ceil(context.apiKey.length / 2));
        return call && bearerToken(request.headers.authorization)?.slice(0, half.length) === half
          ? withKey(request, context.apiKey)
          : request;
      }),
  ),
  "key-prefix-accepted": variation(
    "the key is compared over the length of the token sent, so any prefix of it passes",
    () =>
      requests((request, { call, context }) => {
        const token = bearerToken(request.headers.authorization);
        return call && token && context.apiKey.startsWith(token) ? withKey(request, context.apiKey) : request;
      }),
  ),
  "empty-bearer-passes-on-download": variation(
    "the download answers an Authorization header with an empty bearer token",
    () =>
      requests((request, { call, context }) =>
        call?.operationId === "getFileDownloadUrl" && /^Bearer\s*$/i.test(request.headers.authorization ?? "")
          ? withKey(request, context.apiKey)
          : request,
      ),
  ),
  "key-compared-ignoring-case": variation("keys are compared without regard to case", () =>
    requests((request, { call, context }) =>
      call && bearerToken(request.headers.authorization)?.toLowerCase() === context.apiKey.toLowerCase()
        ? withKey(request, context.apiKey)
        : request,
    ),
  ),
  "labels-split-at-commas": variation(
    "labels are stored split at their commas, as by a server that keeps them comma-separated",
    () =>
      validUpdateBody((body) =>
        Array.isArray(body.labels)
          ? { ...body, labels: body.labels.flatMap((label: string) => label.split(",")) }
          : body,
      ),
  ),
  "public-url-cut-at-255": variation(
    "publicUrl is stored cut to 255 characters, as in a VARCHAR(255) column, and the update answers 200",
    () =>
      validUpdateBody((body) =>
        typeof body.publicUrl === "string" ? { ...body, publicUrl: body.publicUrl.slice(0, 255) } : body,
      ),
  ),
  "labels-not-persisted": variation("an update answers 200 but stores nothing", () => validUpdateBody(() => ({}))),
  "labels-appended": variation("labels are appended to the list instead of replacing it", () =>
    validUpdateBody(async (body, { call, context, service }, request) => {
      if (!Array.isArray(body.labels)) return body;
      const current = await metadataVia(service, request, context.apiKey, call!.fileId);
      return current ? { ...body, labels: [...(current.labels as string[]), ...body.labels] } : body;
    }),
  ),
  // The service's own update schema sets no `additionalProperties: false`, and its official TypeScript SDK sends the
  // file's id in every update body (docs/decisions.md, D05): refusing it refuses the service's own client.
  "unknown-members-refused": variation(
    "an update with a member other than publicUrl and labels (the official SDK's fileId) is refused with 422",
    () =>
      requests((request, tools) => {
        const other = Object.keys(validUpdate(request, tools) ?? {}).find(
          (name) => name !== "publicUrl" && name !== "labels",
        );
        return other === undefined
          ? request
          : errorAnswer(422, "invalid_body", `Unknown member ${JSON.stringify(other)}.`);
      }),
  ),
  // The official SDKs send null for a field not given (the Python SDK up to 2.2 in every labels-only update).
  "nulls-refused": variation("an update with null for publicUrl or labels is refused with 422", () =>
    requests((request, tools) => {
      const body = validUpdate(request, tools);
      return body && (body.publicUrl === null || body.labels === null)
        ? errorAnswer(422, "invalid_body", "null is not a value here.")
        : request;
    }),
  ),
  "labels-trimmed": variation("labels are stored with their leading and trailing whitespace trimmed", () =>
    validUpdateBody((body) =>
      Array.isArray(body.labels) ? { ...body, labels: (body.labels as string[]).map((label) => label.trim()) } : body,
    ),
  ),
  "labels-normalized-nfc": variation("labels are stored in Unicode normalization form C", () =>
    validUpdateBody((body) =>
      Array.isArray(body.labels)
        ? { ...body, labels: (body.labels as string[]).map((label) => label.normalize("NFC")) }
        : body,
    ),
  ),
  "labels-first-ten": variation("only the first ten labels are stored", () =>
    validUpdateBody((body) => (Array.isArray(body.labels) ? { ...body, labels: body.labels.slice(0, 10) } : body)),
  ),
  // A limit applied in silence: the list is cut to the column's 100 entries and the update answers 200.
  // A lagging read replica behind a balancer that pins each connection: connections open at the time of an update
  // stay on the primary, and the first read on a connection opened after it goes to the replica, which has not caught up.
  "stale-read-on-new-connections": variation(
    "after an update, the first read of the file on a connection opened after it shows the file as it was before",
    () => {
      const stale = new Map<string, { openedBefore: number; before: PlainAnswer }>();
      let newest = 0;
      return requests(async (request, { call, context, service }) => {
        newest = Math.max(newest, request.connection ?? 0);
        if (call?.operationId === "updateFile") {
          const before = await service({
            ...withKey(request, context.apiKey),
            method: "GET",
            target: request.target,
            body: new Uint8Array(),
          });
          const answer = await service(request);
          if (answer.status === 200 && before.status === 200) stale.set(call.fileId, { openedBefore: newest, before });
          return answer;
        }
        const pending = call?.operationId === "getFile" ? stale.get(call.fileId) : undefined;
        if (!pending || request.connectionRequests !== 1 || (request.connection ?? 0) <= pending.openedBefore)
          return request;
        stale.delete(call!.fileId);
        return pending.before;
      });
    },
  ),
  // A read-modify-write without a lock: each update reads the record, waits for the other writer of the file (up to
  // 200 ms), and writes the whole record back, so that the second write puts back the field the first one changed.
  "lost-update-on-concurrent-writes": variation(
    "two updates of a file at once both read it first and write it whole, so one of them is lost",
    () => {
      const waiting = new Map<string, () => void>();
      return requests(async (request, { call, context, service }) => {
        const body =
          call?.operationId === "updateFile" && request.body.length > 0
            ? (jsonOf(request.body) as Record<string, unknown> | undefined)
            : undefined;
        // Only an object is merged: an array spread into the record would make a valid body of an invalid one.
        if (!call || !isObject(body)) return request;
        const snapshot = await metadataVia(service, request, context.apiKey, call.fileId);
        if (!snapshot) return request;
        const other = waiting.get(call.fileId);
        if (other) other();
        else
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 200);
            waiting.set(call.fileId, () => (clearTimeout(timer), resolve()));
          });
        waiting.delete(call.fileId);
        return withJsonBody(request, {
          labels: snapshot.labels,
          ...(typeof snapshot.publicUrl === "string" ? { publicUrl: snapshot.publicUrl } : {}),
          ...body,
        });
      });
    },
  ),
  // An update of both fields applied in two steps, the labels first: a read between the steps sees one of each.
  "update-applied-in-steps": variation(
    "an update of labels and publicUrl stores the labels, then the publicUrl after the next read of the file (or 200 ms)",
    () => {
      const nextRead = new Map<string, () => void>();
      return requests(async (request, tools) => {
        const { call, service } = tools;
        if (call?.operationId === "getFile") {
          const step = nextRead.get(call.fileId);
          if (step) setTimeout(step, 0);
          return request;
        }
        // Only an update the service takes is applied in steps: a refused one changes nothing, as before.
        const body = validUpdate(request, tools);
        if (!call || !body || body.labels === undefined || body.publicUrl === undefined) return request;
        const first = await service(withJsonBody(request, { labels: body.labels }));
        if (first.status !== 200) return first;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          nextRead.set(call.fileId, () => (clearTimeout(timer), resolve()));
        });
        nextRead.delete(call.fileId);
        return withJsonBody(request, { publicUrl: body.publicUrl });
      });
    },
  ),
  "labels-first-hundred": variation(
    "only the first 100 labels are stored, and a longer list is accepted with 200",
    () =>
      validUpdateBody((body) => (Array.isArray(body.labels) ? { ...body, labels: body.labels.slice(0, 100) } : body)),
  ),
  // A template engine's escaping applied when the labels are stored, not when they are shown.
  "labels-html-escaped": variation("labels are stored HTML-escaped: & < > \" ' become entities", () =>
    validUpdateBody((body) =>
      Array.isArray(body.labels)
        ? {
            ...body,
            labels: body.labels.map((l: string) =>
              l
                .replace(/&/g, "&amp;")
                .replace(/</g, "&lt;")
                .replace(/>/g, "&gt;")
                .replace(/"/g, "&quot;")
                .replace(/'/g, "&#39;"),
            ),
          }
        : body,
    ),
  ),
  // A framework that keeps publicUrl as a URL object and writes back its serialization.
  "public-url-reserialized": variation(
    "publicUrl is stored as a URL parser writes it back (new URL(x).href: lower-case host, / added, default port dropped)",
    () =>
      // A publicUrl that is not a URL (any string is valid: www.example.com) is stored as sent, as such a framework must.
      validUpdateBody((body) =>
        typeof body.publicUrl === "string" && URL.canParse(body.publicUrl)
          ? { ...body, publicUrl: new URL(body.publicUrl).href }
          : body,
      ),
  ),
  "empty-labels-ignored": variation("labels: [] leaves the labels as they were, instead of clearing them", () =>
    validUpdateBody(({ labels, ...rest }) =>
      Array.isArray(labels) && labels.length === 0 ? rest : { ...rest, labels },
    ),
  ),
  "public-url-ignored": variation("the publicUrl of an update is ignored, though the metadata shows publicUrl", () =>
    validUpdateBody(({ publicUrl: _ignored, ...rest }) => rest),
  ),
  // A change check against the wrong snapshot: an update whose fields all equal the file as first read (not as it is
  // now) is taken for "no change", answered 200 and not applied. The suite's restores send exactly those values.
  "update-to-first-values-ignored": variation(
    "an update whose fields all equal the file's values when the server first read it is answered 200 and not applied",
    () => {
      const first = new Map<string, Record<string, unknown>>();
      return requests(async (request, tools) => {
        const body = tools.call?.operationId === "updateFile" ? validUpdate(request, tools) : undefined;
        if (!body) return request;
        const { fileId } = tools.call!;
        if (!first.has(fileId)) {
          const metadata = await metadataVia(tools.service, request, tools.context.apiKey, fileId);
          if (metadata) first.set(fileId, metadata);
        }
        const snapshot = first.get(fileId);
        const fields = Object.entries(body);
        const unchanged =
          snapshot !== undefined &&
          fields.length > 0 &&
          fields.every(([field, value]) => JSON.stringify(snapshot[field]) === JSON.stringify(value));
        return unchanged ? emptyAnswer(200) : request;
      });
    },
  ),
  // A handler that writes one column per request: the suite's own restore sends both fields, and only the labels stay.
  "public-url-dropped-beside-labels": variation(
    "an update that carries labels ignores its publicUrl (one sent alone is kept)",
    () =>
      validUpdateBody(({ publicUrl, ...rest }) =>
        rest.labels === undefined ? { ...rest, ...(publicUrl === undefined ? {} : { publicUrl }) } : rest,
      ),
  ),
  "update-resets-created-at": variation("an update sets created_at to the time of the update", () => {
    // A clock that moves on with every update: two updates in one millisecond still differ.
    let updates = 0;
    const updatedAt = new Map<string, string>();
    return answers((answer, _request, { call }) => {
      if (call?.operationId === "updateFile" && answer.status === 200)
        updatedAt.set(call.fileId, new Date(Date.UTC(2030, 0, 1) + ++updates * 1000).toISOString());
      const at = call && updatedAt.get(call.fileId);
      return call?.operationId === "getFile" && answer.status === 200 && at
        ? withJson(answer, { ...(jsonOf(answer.body) as object), created_at: at })
        : answer;
    });
  }),
  // The first write of a run empties the file: a check that compares only around its own update sees nothing change.
  "update-empties-the-file": variation(
    "every update empties the file: its size reads 0 and its signed URL serves no bytes",
    () => {
      const emptied = new Set<string>();
      return answers((answer, request, { call }) => {
        if (call?.operationId === "updateFile" && answer.status === 200) emptied.add(call.fileId);
        if (call?.operationId === "getFile" && answer.status === 200 && emptied.has(call.fileId))
          return withJson(answer, { ...(jsonOf(answer.body) as object), size: 0 });
        const served = contentFileId(request.target);
        return served !== undefined && emptied.has(served) && answer.status === 200 ? { ...answer, body: "" } : answer;
      });
    },
  ),
  "metadata-size-in-kilobytes": variation("the metadata gives the size in kilobytes, rounded up", () =>
    metadata((file) => ({ ...file, size: Math.ceil(Number(file.size) / 1024) })),
  ),
  "omitted-labels-cleared": variation("an update that omits labels clears them", () =>
    validUpdateBody((body) => ({ ...body, labels: body.labels ?? [] })),
  ),
  "download-relative-url": variation("the download body is a relative URL", () =>
    download((url) => ({ body: new URL(url).pathname + new URL(url).search, contentType: "text/plain" })),
  ),
  "download-url-in-object": variation("the download body is a JSON object holding the URL", () =>
    download((url) => ({ body: JSON.stringify({ url }), contentType: "application/json" })),
  ),
  "download-url-control-char": variation("the signed URL is followed by a NUL byte, which URL parsers drop", () =>
    download((url) => ({ body: `${url}\u0000`, contentType: "text/plain" })),
  ),
  "download-url-broken-signature": variation(
    "the signed URL looks right but its signature does not verify, so it does not download",
    () =>
      download((url) => ({
        body: url.replace(/signature=[0-9a-f]/, (m) => (m.endsWith("0") ? `${m.slice(0, -1)}1` : `${m.slice(0, -1)}0`)),
        contentType: "text/plain",
      })),
  ),
  "server-error-on-bad-json": variation("a body that is not JSON gets a 500", () =>
    answers((answer) => (errorCodeOf(answer) === "invalid_json" ? { ...answer, status: 500 } : answer)),
  ),
  "wrong-types-accepted": variation("update bodies of the wrong shape are accepted with 200 (and ignored)", () =>
    acceptsInvalidBody(() => true),
  ),
  "label-items-not-strings-accepted": variation(
    "an update whose labels are not all strings is accepted with 200 (and ignored)",
    () =>
      acceptsInvalidBody(
        (body) =>
          isObject(body) && Array.isArray(body.labels) && body.labels.some((label) => typeof label !== "string"),
      ),
  ),
  "public-url-number-accepted": variation(
    "an update with a number as publicUrl is accepted with 200 (and ignored)",
    () => acceptsInvalidBody((body) => isObject(body) && typeof body.publicUrl === "number"),
  ),
  "non-ascii-labels-refused": variation("valid labels that are empty or not printable ASCII are refused with 422", () =>
    requests((request, tools) => {
      const refused = ((validUpdate(request, tools)?.labels as string[] | undefined) ?? []).filter(
        (label) => !/^[\x20-\x7e]+$/.test(label),
      );
      return refused.length > 0
        ? errorAnswer(422, "label_refused", `These labels are not allowed: ${JSON.stringify(refused)}.`)
        : request;
    }),
  ),
  "download-json-only-refused": variation(
    "the download refuses a client that asks for JSON only (Accept: application/json) with 422",
    () =>
      requests((request, { call }) =>
        call?.operationId === "getFileDownloadUrl" && request.headers.accept?.trim() === "application/json"
          ? errorAnswer(422, "not_acceptable", "This download answers text/plain only.")
          : request,
      ),
  ),
  "slow-answers": variation("every answer takes 120 ms (a warning when FILE_LIBRARY_MAX_RESPONSE_MS is lower)", () =>
    requests((request) => new Promise((resolve) => setTimeout(() => resolve(request), 120))),
  ),
} satisfies Record<string, Variation>;

/** The name of a fault. */
export type FaultName = keyof typeof faults;

/** Ways to keep the contract that a strict-minded suite might wrongly fail (`variation({ variant: NAME })`). */
export const legitimateVariants = {
  "download-as-json-string": variation("the download URL comes as a JSON string under application/json", () =>
    download((url) => ({ body: JSON.stringify(url), contentType: "application/json" })),
  ),
  // Whitespace around the URL is not part of it (docs/decisions.md, D11): an echo-style handler's newline,
  // a template's indentation.
  "download-url-padded": variation(
    "the download URL comes with whitespace around it: a space and a tab before, CRLF after",
    () => download((url) => ({ body: ` \t${url}\r\n`, contentType: "text/plain" })),
  ),
  "metadata-extra-fields": variation("the metadata carries fields the spec does not list", () =>
    metadata((file) => ({ ...file, checksum: "sha256:0f3c", owner: { id: "u_1" }, version: 3 })),
  ),
  // RFC 3339 5.6: T and Z may be lower case; a leap second is 23:59:60 UTC.
  "created-at-leap-second-lower-case": variation(
    "created_at is a leap second written with a lower-case t and z (2016-12-31t23:59:60z)",
    () => metadata((file) => ({ ...file, created_at: "2016-12-31t23:59:60z" })),
  ),
  "created-at-zero-offset": variation("created_at ends in +00:00 instead of Z", () =>
    metadata((file) => ({ ...file, created_at: String(file.created_at).replace(/\.\d+Z$|Z$/, "+00:00") })),
  ),
  "error-body-detail-string": variation("error bodies in FastAPI's shape, { detail: string }", () =>
    unknownIdBody(() => ({ detail: "File not found" })),
  ),
  "update-answers-empty-object": variation("a successful update answers {} as application/json", () =>
    answers((answer, _request, { call }) =>
      call?.operationId === "updateFile" && answer.status === 200 ? jsonAnswer(200, {}) : answer,
    ),
  ),
  "errors-as-problem-details": variation(
    "every error answer is an RFC 9457 problem document, as application/problem+json",
    () =>
      answers((answer) => {
        if (answer.status < 400) return answer;
        const { message } = (jsonOf(answer.body) ?? {}) as { message?: string };
        const body = {
          type: "about:blank",
          title: message?.split(":")[0] ?? "Error",
          status: answer.status,
          detail: message ?? "",
        };
        return {
          ...answer,
          body: JSON.stringify(body),
          headers: { ...answer.headers, "content-type": "application/problem+json" },
        };
      }),
  ),
  "rate-limited": variation(
    "every seventh request gets 429 with Retry-After: 1, as behind a rate-limiting gateway",
    everyNth(
      7,
      () => true,
      () =>
        errorAnswer(429, "rate_limited", "Too many requests: try again in 1 second.", undefined, {
          "retry-after": "1",
        }),
    ),
  ),
  "drops-kept-alive-connections": variation(
    "every third request on a kept-alive connection finds it closed, unanswered (a server retiring idle connections)",
    everyNth(
      3,
      (connectionRequests) => connectionRequests > 1,
      () => ({ status: 0, headers: {}, body: "", drop: true }),
    ),
  ),
  "compressed-answers": variation(
    "every answer with a body comes gzip- or deflate-encoded, in turn, where the request accepts it (as behind a compressing proxy)",
    () => {
      let answered = 0;
      return answers(async (answer, request) => {
        const encoding = answered++ % 2 === 0 ? "gzip" : "deflate";
        const bytes = typeof answer.body === "string" ? new TextEncoder().encode(answer.body) : answer.body;
        if (answer.drop || bytes.length === 0 || !(request.headers["accept-encoding"] ?? "").includes(encoding))
          return answer;
        // CompressionStream, not node:zlib: the variants run wherever the service does.
        const compressed = await new Response(
          new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream(encoding)),
        ).arrayBuffer();
        return {
          ...answer,
          body: new Uint8Array(compressed),
          headers: { ...answer.headers, "content-encoding": encoding, vary: "accept-encoding" },
        };
      });
    },
  ),
  // Node's own default advertises 5 s; a load balancer in front may retire idle connections far sooner.
  "closes-idle-connections-at-once": variation(
    "idle connections are closed 5 ms after the last answer, though Keep-Alive: timeout=5 is advertised (a server may close an idle connection at any time)",
    () => (service) => service,
    { keepAlive: { advertisedSeconds: 5, keptMs: 5 } },
  ),
  // The service's own documents speak of "unique labels", at most 20 (docs/decisions.md, D06):
  // a server that keeps a set keeps the contract, and the suite warns of it.
  "labels-deduplicated": variation("labels are stored without duplicates, in the order first sent", () =>
    validUpdateBody((body) => (Array.isArray(body.labels) ? { ...body, labels: [...new Set(body.labels)] } : body)),
  ),
  "labels-sorted": variation("labels are stored sorted, as by a server that keeps them as a set", () =>
    validUpdateBody((body) =>
      Array.isArray(body.labels) ? { ...body, labels: (body.labels as string[]).toSorted() } : body,
    ),
  ),
  "twenty-unique-labels": variation(
    "an update with more than 20 labels, or with a label twice, is refused with 422 (the service's own limit)",
    () =>
      requests((request, tools) => {
        const labels = validUpdate(request, tools)?.labels;
        if (!Array.isArray(labels) || (labels.length <= 20 && new Set(labels).size === labels.length)) return request;
        return errorAnswer(422, "invalid_labels", "At most 20 unique labels.");
      }),
  ),
  // null means "not given" (docs/decisions.md, D05); a server that clears the field keeps the contract's
  // letter (the description is silent) and is warned.
  "nulls-clear-the-field": variation("null for publicUrl or labels clears that field", () =>
    validUpdateBody((body) => ({
      ...body,
      ...(body.labels === null && { labels: [] }),
      ...(body.publicUrl === null && { publicUrl: "" }),
    })),
  ),
  // A limit refused as the spec documents a refusal: 422, the list left as it was.
  "long-lists-refused": variation("an update with more than 200 labels is refused with 422", () =>
    requests((request, tools) => {
      const labels = validUpdate(request, tools)?.labels;
      return Array.isArray(labels) && labels.length > 200
        ? errorAnswer(422, "too_many_labels", `At most 200 labels, got ${labels.length}.`)
        : request;
    }),
  ),
} satisfies Record<string, Variation>;

/** The name of a legitimate variant. */
export type VariantName = keyof typeof legitimateVariants;
