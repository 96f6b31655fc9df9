import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { escapeSegment, followRefs, nodeAt } from "./json-pointer.ts";
import { isRfc3339DateTime } from "./rfc3339.ts";
import { SpecOperations, type OpenApiDocument } from "./spec-operations.ts";
import { resultOf, unsupportedMediaType, type ValidationResult } from "./validation-errors.ts";

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type { ValidationIssue, ValidationResult } from "./validation-errors.ts";

/** The $id the document is registered under, so that its local $refs resolve. */
export const SPEC_ID = "https://file-library.invalid/openapi.json";

/** Validates requests and responses against one bundled OpenAPI 3.1 document with Ajv (2020-12, with formats). */
export class OpenApiValidator extends SpecOperations {
  private readonly ajv: Ajv2020;
  // Each schema compiled once, with the name its errors give it: the sandbox and the proxy validate on every request.
  private readonly compiled = new Map<string, { validate: ValidateFunction; name: string }>();
  // What the spec says of a response, read once: the proxy asks it of every answer of real traffic.
  private readonly answers = new Map<string, unknown>();

  constructor(document: OpenApiDocument) {
    super(document);
    // The whole document is registered so that its local $refs resolve; Ajv compiles it as a schema
    // on the way, and its OpenAPI keys (openapi, paths, ...) are not JSON Schema keywords. Schema
    // typos are Redocly's job (npm run lint:spec); here strictSchema would only reject the envelope.
    // The schemas compiled are `{ $ref }` wrappers of our making: checking them against the meta-schema would only
    // compile the meta-schema: 25 to 40 ms before the first validation of every process that validates (the suite's
    // worker, the sandbox, the proxy).
    this.ajv = new Ajv2020({ allErrors: true, strictSchema: false, strictTypes: false, validateSchema: false });
    addFormats(this.ajv);
    // format: date-time is RFC 3339, which requires the offset's colon; ajv-formats' own check takes "+0000".
    this.ajv.addFormat("date-time", isRfc3339DateTime);
    this.ajv.addSchema({ ...document, $id: SPEC_ID } as object, undefined, undefined, false);
  }

  /** The media types documented for a response, or [] when it is documented with no body. */
  responseMediaTypes(operationId: string, statusKey: string): string[] {
    return this.once(`media ${operationId} ${statusKey}`, () => {
      const response = this.resolve(this.responseNode(operationId, statusKey));
      return Object.keys((response.content as Record<string, unknown>) ?? {});
    });
  }

  /** The headers documented for a response: name (lower-case), whether required, and a validator of its value. */
  responseHeaders(
    operationId: string,
    statusKey: string,
  ): Array<{ name: string; required: boolean; validate: (value: string) => ValidationResult }> {
    return this.once(`headers ${operationId} ${statusKey}`, () => this.readResponseHeaders(operationId, statusKey));
  }

  private once<T>(key: string, read: () => T): T {
    if (!this.answers.has(key)) this.answers.set(key, read());
    return this.answers.get(key) as T;
  }

  private readResponseHeaders(
    operationId: string,
    statusKey: string,
  ): Array<{ name: string; required: boolean; validate: (value: string) => ValidationResult }> {
    const responsePointer = this.responsePointer(operationId, statusKey);
    const headers = (this.resolve(this.responseNode(operationId, statusKey)).headers ?? {}) as Record<
      string,
      Record<string, unknown>
    >;
    return Object.entries(headers).map(([name, node]) => {
      const header = this.resolve(node);
      const pointer =
        typeof node.$ref === "string"
          ? `${node.$ref.replace(/^#/, "")}/schema`
          : `${responsePointer}/headers/${escapeSegment(name)}/schema`;
      return {
        name: name.toLowerCase(),
        required: header.required === true,
        validate: (value: string) => this.validate(pointer, value),
      };
    });
  }

  /** Validates a response body (already parsed when JSON, raw text otherwise) against its documented schema. */
  validateResponse(operationId: string, statusKey: string, mediaType: string, body: unknown): ValidationResult {
    const pointer = `${this.responsePointer(operationId, statusKey)}/content/${escapeSegment(mediaType)}/schema`;
    return this.validate(pointer, body);
  }

  /** The schema of an operation's request body for a media type, with local $refs left for `deref`. */
  requestBodySchema(operationId: string, mediaType: string): Record<string, unknown> {
    const requestBody = this.resolve(
      (this.operations.get(operationId)?.node.requestBody ?? {}) as Record<string, unknown>,
    );
    const content = (requestBody.content ?? {}) as Record<string, { schema?: Record<string, unknown> }>;
    const schema = content[mediaType]?.schema;
    if (!schema) throw new Error(`${operationId} documents no ${mediaType} request body.`);
    return this.deref(schema);
  }

  /** A schema with its top-level local $ref followed. */
  deref(schema: Record<string, unknown>): Record<string, unknown> {
    return this.resolve(schema);
  }

  /** Every request body of the spec: its operation, media type, and the JSON pointer of its schema. */
  requestBodies(): Array<{ operationId: string; mediaType: string; pointer: string }> {
    return [...this.operations.keys()].flatMap((operationId) =>
      this.requestBodyMediaTypes(operationId).map((mediaType) => ({
        operationId,
        mediaType,
        pointer: this.requestBodyPointer(operationId, mediaType),
      })),
    );
  }

  /** Validates a request body against the operation's documented schema for this media type. */
  validateRequestBody(operationId: string, mediaType: string, body: unknown): ValidationResult {
    const documented = this.requestBodyMediaTypes(operationId);
    if (!documented.includes(mediaType)) return unsupportedMediaType(mediaType, documented);
    return this.validate(this.requestBodyPointer(operationId, mediaType), body);
  }

  /** Whether the operation requires credentials: a non-empty `security` of its own, else the document's. */
  requiresAuth(operationId: string): boolean {
    const own = this.operations.get(operationId)?.node.security as unknown[] | undefined;
    const security = own ?? (this.document as { security?: unknown[] }).security ?? [];
    // `[{}]` (an empty requirement) makes credentials optional.
    return security.length > 0 && !security.some((requirement) => Object.keys(requirement as object).length === 0);
  }

  /** The media types the operation's request body is documented in ([] when it takes no body). */
  requestBodyMediaTypes(operationId: string): string[] {
    const requestBody = this.resolve(
      (this.operations.get(operationId)?.node.requestBody ?? {}) as Record<string, unknown>,
    );
    return Object.keys((requestBody.content ?? {}) as Record<string, unknown>);
  }

  private requestBodyPointer(operationId: string, mediaType: string): string {
    const { path, method } = this.operation(operationId);
    const node = (this.operations.get(operationId)!.node.requestBody ?? {}) as Record<string, unknown>;
    const base =
      typeof node.$ref === "string"
        ? node.$ref.replace(/^#/, "")
        : `/paths/${escapeSegment(path)}/${method.toLowerCase()}/requestBody`;
    return `${base}/content/${escapeSegment(mediaType)}/schema`;
  }

  private validate(pointer: string, data: unknown): ValidationResult {
    let compiled = this.compiled.get(pointer);
    if (!compiled) {
      // Name the component when the schema is a reference to one: "#/components/schemas/FileMetadata" says more.
      const node = this.at(pointer) as { $ref?: unknown } | undefined;
      compiled = {
        validate: this.ajv.compile({ $ref: `${SPEC_ID}#${pointer}` }),
        name: typeof node?.$ref === "string" ? node.$ref : `#${pointer}`,
      };
      this.compiled.set(pointer, compiled);
    }
    const valid = compiled.validate(data) as boolean;
    return resultOf(valid, compiled.validate.errors, compiled.name);
  }

  private responseNode(operationId: string, statusKey: string): Record<string, unknown> {
    const responses = (this.operations.get(operationId)?.node.responses ?? {}) as Record<
      string,
      Record<string, unknown>
    >;
    const node = responses[statusKey];
    if (!node) throw new Error(`${operationId} documents no ${statusKey} response.`);
    return node;
  }

  private responsePointer(operationId: string, statusKey: string): string {
    const node = this.responseNode(operationId, statusKey);
    if (typeof node.$ref === "string") return node.$ref.replace(/^#/, "");
    const { path, method } = this.operation(operationId);
    return `/paths/${escapeSegment(path)}/${method.toLowerCase()}/responses/${escapeSegment(statusKey)}`;
  }

  /** The node at a JSON pointer of the document, or undefined. */
  private at(pointer: string): unknown {
    return nodeAt(this.document, pointer);
  }

  /** Follows a local $ref (the bundle has only local ones). */
  private resolve(node: Record<string, unknown>): Record<string, unknown> {
    return followRefs(this.document, node, "").node as Record<string, unknown>;
  }
}
