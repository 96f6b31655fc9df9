import type { HttpHandler } from "msw";
import type { components } from "../src/generated/schema.d.ts";
import { checkFixtures, toStoredFiles, type Fixture } from "./core/fixtures.ts";
import { MemoryStorage } from "./core/memory-storage.ts";
import { errorAnswer, jsonAnswer, textAnswer, type PlainAnswer, type Service } from "./core/plain.ts";
import { createFileLibraryService, type OperationId } from "./core/service.ts";
import { UrlSigner, webCryptoHmac } from "./core/signed-urls.ts";
import { requests } from "./fault-layer.ts";
import { fakeSpec } from "./fake-spec.ts";
import { fetchAdapter, type FetchFunction } from "./fetch-adapter.ts";
import { mswAdapter } from "./msw-adapter.ts";

/** How to make a fake File Library; every option has a default. */
export interface FakeFileLibraryOptions {
  /** The key its callers must send as `Authorization: Bearer <key>`. Default: `"test-key"`. */
  apiKey?: string;
  /** The files it starts with, in the sandbox's `--fixtures` format. Default: none. */
  files?: Fixture[];
  /** The base URL it answers on (and its signed URLs point to). Default: `https://file-library.fake`. */
  baseUrl?: string;
  /** How long signed download URLs stay valid, in seconds. Default: 900. */
  urlTtlSeconds?: number;
}

/** The next calls of an operation fail with this answer. */
export interface FailNext {
  status: number;
  headers?: Record<string, string>;
  /** JSON (an object or array), or text. Default: an error body saying the failure was injected. */
  body?: unknown;
  /** How many calls fail. Default: 1. */
  times?: number;
}

/** A File Library in memory, with the real service's semantics, for apps' tests. */
export interface FakeFileLibrary {
  /** The base URL it answers on: give it to the client as `baseUrl`. */
  readonly baseUrl: string;
  /** A fetch function that answers in-process: give it to the client as `fetch`. Signed URLs are fetched through it too. */
  readonly fetch: FetchFunction;
  /** The stored metadata of a file now, as a copy the app may change, or undefined when there is none. */
  file(id: string): components["schemas"]["FileMetadata"] | undefined;
  /** Makes the next calls of an operation (`times`, default 1) fail with this status, headers and body. */
  failNext(operationId: OperationId, failure: FailNext): void;
  /** Makes the next calls of an operation (`times`, default 1) wait `ms` before they are answered. */
  delayNext(operationId: OperationId, ms: number, options?: { times?: number }): void;
  /** Makes the next calls of an operation (`times`, default 1) lose their connection: the fetch rejects, as on a network failure. */
  dropNext(operationId: OperationId, options?: { times?: number }): void;
  /** MSW handlers that serve the fake on its base URL (needs `msw`, an optional peer dependency). */
  mswHandlers(): HttpHandler[];
  /** The service as a plain function, for serving the fake with another adapter (node:http in the kit's tests). */
  readonly service: Service;
}

export type { Fixture, OperationId };

type Scripted = { times: number } & (
  | { kind: "fail"; answer: PlainAnswer }
  | { kind: "delay"; ms: number }
  | { kind: "drop" }
);

const DEFAULT_BASE_URL = "https://file-library.fake";

/** The answer of a failNext: its body as JSON, or as text when it is a string. */
function failureAnswer(operationId: OperationId, { status, headers = {}, body }: FailNext): PlainAnswer {
  const answer =
    body === undefined
      ? errorAnswer(status, "injected_failure", `failNext("${operationId}") made this call fail.`)
      : typeof body === "string"
        ? textAnswer(status, body)
        : jsonAnswer(status, body);
  return {
    ...answer,
    headers: {
      ...answer.headers,
      ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    },
  };
}

/** Makes a fake File Library: the service's core over memory storage, with scripted failures around it. */
export function createFakeFileLibrary(options: FakeFileLibraryOptions = {}): FakeFileLibrary {
  const apiKey = options.apiKey ?? "test-key";
  const base = new URL(options.baseUrl ?? DEFAULT_BASE_URL);
  const baseUrl = `${base.origin}${base.pathname}`.replace(/\/+$/, "");
  const storage = new MemoryStorage();
  storage.put(toStoredFiles(checkFixtures(options.files ?? [], "The fake's files")));
  const spec = fakeSpec();
  const signer = new UrlSigner(webCryptoHmac(crypto.getRandomValues(new Uint8Array(32))), options.urlTtlSeconds ?? 900);
  const core = createFileLibraryService({ apiKey, storage, signer, spec });

  // What the test scripted, per operation, in order: a wrapper around the core, as every fault is.
  const scripts = new Map<OperationId, Scripted[]>();
  const script = (operationId: OperationId, step: Scripted) =>
    scripts.set(operationId, [...(scripts.get(operationId) ?? []), step]);
  const scripted = requests(async (request, { call }) => {
    const queue = call && scripts.get(call.operationId);
    const step = queue?.[0];
    if (!step) return request;
    if (--step.times <= 0) queue.shift();
    if (step.kind === "fail") return step.answer;
    if (step.kind === "drop") return { status: 0, headers: {}, body: "", drop: true };
    await new Promise((resolve) => setTimeout(resolve, step.ms));
    return request;
  });
  const service = scripted(core, { apiKey, spec });
  const times = (value: number | undefined) => {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      throw new RangeError(`times must be a whole number of at least 1, got ${value}.`);
    return value ?? 1;
  };

  return {
    baseUrl,
    fetch: fetchAdapter(service, baseUrl),
    service,
    // A copy: the storage hands out its own frozen record, which an app's test may not expect to be read-only.
    file: (id) => {
      const stored = storage.get(id);
      return stored && { ...stored, labels: [...stored.labels] };
    },
    failNext: (operationId, failure) =>
      script(operationId, { kind: "fail", answer: failureAnswer(operationId, failure), times: times(failure.times) }),
    delayNext: (operationId, ms, { times: n } = {}) => script(operationId, { kind: "delay", ms, times: times(n) }),
    dropNext: (operationId, { times: n } = {}) => script(operationId, { kind: "drop", times: times(n) }),
    mswHandlers: () => mswAdapter(service, baseUrl),
  };
}
