import { createRouter } from "../lib/openapi/router.ts";
import { emptyAnswer, errorCodeOf, jsonOf, type PlainAnswer, type PlainRequest, type Service } from "./core/plain.ts";
import { unknownIdAnswer, type OperationId, type ServiceSpec } from "./core/service.ts";

/** What a wrapper may know besides the request: the key (a fault may echo or bypass it) and the spec. */
export interface WrapperContext {
  apiKey: string;
  spec: ServiceSpec;
}

/** A transformation of the service: of its requests, its answers, or both. Faults and variants are made of these. */
export type Wrapper = (service: Service, context: WrapperContext) => Service;

/** The operation a request calls, and its file id; undefined for anything else (signed content URLs, unknown routes). */
export type Call = { operationId: OperationId; fileId: string } | undefined;

const routers = new WeakMap<ServiceSpec, ReturnType<typeof createRouter>>();
function callOf(request: PlainRequest, spec: ServiceSpec): Call {
  let route = routers.get(spec);
  if (!route) routers.set(spec, (route = createRouter(spec)));
  const match = route(request.method, request.target.split("?")[0]!);
  const fileId = match?.params.file_id;
  return match?.operationId !== undefined && fileId !== undefined
    ? { operationId: match.operationId as OperationId, fileId }
    : undefined;
}

/** Every answer carries an x-request-id: one a wrapper makes gets the id of the answer it replaces, or a new one. */
const withRequestId = (answer: PlainAnswer, from?: PlainAnswer): PlainAnswer =>
  answer.headers["x-request-id"] || answer.drop
    ? answer
    : {
        ...answer,
        headers: { ...answer.headers, "x-request-id": from?.headers["x-request-id"] ?? crypto.randomUUID() },
      };

/** Helpers a wrapper's function gets. */
export interface Tools {
  call: Call;
  context: WrapperContext;
  /** The wrapped service, for a wrapper that needs to ask it something (the file's metadata, say). */
  service: Service;
}

/** A wrapper that changes answers (`change` returns the answer to send). */
export const answers =
  (change: (answer: PlainAnswer, request: PlainRequest, tools: Tools) => PlainAnswer | Promise<PlainAnswer>): Wrapper =>
  (service, context) =>
  async (request) => {
    const answer = await service(request);
    return withRequestId(
      await change(answer, request, { call: callOf(request, context.spec), context, service }),
      answer,
    );
  };

/** A wrapper that changes requests, or answers them itself (when `change` returns an answer). */
export const requests =
  (
    change: (request: PlainRequest, tools: Tools) => PlainRequest | PlainAnswer | Promise<PlainRequest | PlainAnswer>,
  ): Wrapper =>
  (service, context) =>
  async (request) => {
    const changed = await change(request, { call: callOf(request, context.spec), context, service });
    return "status" in changed || "drop" in changed ? withRequestId(changed as PlainAnswer) : service(changed);
  };

/** Wrappers applied in order: the first is innermost. */
export const chain =
  (...wrappers: Wrapper[]): Wrapper =>
  (service, context) =>
    wrappers.reduce((inner, wrap) => wrap(inner, context), service);

/** The same request with a new JSON body. */
export const withJsonBody = (request: PlainRequest, body: unknown): PlainRequest => ({
  ...request,
  body: new TextEncoder().encode(JSON.stringify(body)),
});

/** The same request with the service's own key. */
export const withKey = (request: PlainRequest, apiKey: string): PlainRequest => ({
  ...request,
  headers: { ...request.headers, authorization: `Bearer ${apiKey}` },
});

/** The same answer with a new JSON body (its status and headers kept). */
export const withJson = (answer: PlainAnswer, body: unknown): PlainAnswer => ({
  ...answer,
  body: JSON.stringify(body),
});

/** Whether an answer is the service's answer for an unknown id. */
export const isUnknownId = (answer: PlainAnswer): boolean =>
  answer.status === 422 && errorCodeOf(answer) === "file_not_found";

/** The file's metadata as the wrapped service has it now, or undefined when it has no such file. */
export async function metadataVia(
  service: Service,
  request: PlainRequest,
  apiKey: string,
  fileId: string,
): Promise<Record<string, unknown> | undefined> {
  const target = `${request.target.split("?")[0]!.replace(/\/download$/, "")}`;
  const answer = await service({ ...withKey(request, apiKey), method: "GET", target, body: new Uint8Array() });
  return answer.status === 200 ? (jsonOf(answer.body) as Record<string, unknown>) : undefined;
}

/** The update's body, when it is one the spec accepts (JSON, valid UpdateFileRequest); undefined otherwise. */
export function validUpdate(request: PlainRequest, { call, context }: Tools): Record<string, unknown> | undefined {
  if (call?.operationId !== "updateFile") return undefined;
  const body = jsonOf(request.body);
  return context.spec.validateRequestBody("updateFile", "application/json", body).valid
    ? (body as Record<string, unknown>)
    : undefined;
}

/** A wrapper that changes the metadata of every successful getFile. */
export const metadata = (change: (file: Record<string, unknown>) => unknown): Wrapper =>
  answers((answer, _request, { call }) =>
    call?.operationId === "getFile" && answer.status === 200
      ? withJson(answer, change(jsonOf(answer.body) as Record<string, unknown>))
      : answer,
  );

/** A wrapper that changes the successful download answer, from the signed URL. */
export const download = (change: (signedUrl: string) => { body: string; contentType: string }): Wrapper =>
  answers((answer, _request, { call }) => {
    if (call?.operationId !== "getFileDownloadUrl" || answer.status !== 200) return answer;
    const { body, contentType } = change(String(answer.body));
    return { ...answer, body, headers: { ...answer.headers, "content-type": contentType } };
  });

/** A wrapper that answers 200 (and stores nothing) to the invalid update bodies `accepts` picks; an unknown id still gets 422. */
export const acceptsInvalidBody = (accepts: (body: unknown) => boolean): Wrapper =>
  answers(async (answer, request, { call, context, service }) => {
    if (call?.operationId !== "updateFile" || errorCodeOf(answer) !== "invalid_body" || !accepts(jsonOf(request.body)))
      return answer;
    return (await metadataVia(service, request, context.apiKey, call.fileId))
      ? emptyAnswer(200)
      : unknownIdAnswer(call.fileId);
  });
