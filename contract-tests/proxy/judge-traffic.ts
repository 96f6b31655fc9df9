import { createHash } from "node:crypto";
import { createRequestInspector, headerValue, type InspectedRequest } from "../../lib/openapi/request-inspection.ts";
import { createRouter } from "../../lib/openapi/router.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { bearerToken } from "../../lib/bearer-token.ts";
import { repeatedMemberName } from "../../src/json-names.ts";
import { redactSecrets } from "../../lib/redact-secrets.ts";
import { downloadAnswerProblem } from "../checks/download-url-valid.ts";
import { judgeResponse, unexpected } from "../checks/judge-answer.ts";
import { metadataIdProblem } from "../checks/metadata-of-requested-file.ts";
import type { JudgingLimits } from "../checks/types.ts";
import { curlFor, type ShownRequest } from "../http/curl.ts";
import { exchangeFrom, jsonBody, type Exchange } from "../http/exchange.ts";
import { secretsOf } from "../inputs/keys.ts";
import type { OperationId } from "../../src/errors.ts";
import { decodeBody } from "./decode-body.ts";
import type { PassedExchange, UpstreamFailure } from "./forward.ts";
import type { ProxyFinding, Side } from "./proxy-summary.ts";
import { TrafficRules } from "./traffic-rules.ts";

export type { ProxyFinding, Side } from "./proxy-summary.ts";

/** What the judge tells its listener, as it happens. */
export interface JudgeEvents {
  finding(finding: ProxyFinding): void;
  warning(warning: Omit<ProxyFinding, "side">): void;
  seen(operation: string | undefined, status: number): void;
  notChecked(operation: string, reason: string): void;
  /** A browser's CORS preflight passed: counted, not judged. */
  preflight(): void;
  /**
   * An answer's metadata is in the shape of the service's own OpenAPI document (checks/service-document-shape.ts): the
   * one line that says why its checks fail, told once, before that exchange's findings.
   */
  diagnosis?(line: string): void;
}

const MOST_SECRETS = 256;

/** The longest request body a curl command of a report carries; a longer one is elided, with its size and digest. */
export const BODY_SHOWN_CHARS = 2_048;

/** What a report's curl command sends in place of a body too long to show: its size, and its digest when it was kept whole. */
function elided(body: PassedExchange["requestBody"]): string {
  const digest = body.cut
    ? "not kept whole: over FILE_LIBRARY_MAX_RESPONSE_BYTES"
    : `sha256 ${createHash("sha256").update(body.bytes).digest("hex")}`;
  return `[body elided: ${body.total} bytes, ${digest}]`;
}

/** The check a traffic rule that throws is reported under, on the proxy's side. */
const TRAFFIC_RULES = "traffic_rules";

/** A traffic rule threw as a request arrived: the request's token, reported once the exchange is known. */
class RuleFailure {
  constructor(readonly problem: string) {}
}

type UpdateHandle = Parameters<TrafficRules["updateEnded"]>[0];

/** How judge() reports on one exchange: `report` tells a finding and keeps it in `found`; `curlOf` is its curl, made once. */
interface Reporter {
  found: ProxyFinding[];
  report(side: Side, check: string, problem: string, as?: string): void;
  curlOf(): string;
}

/** What judge() knows of an exchange whose answer's body was decoded, for the answer's checks. */
interface JudgedAnswer {
  inspected: InspectedRequest;
  operation: string;
  ex: Exchange;
  verdicts: ReturnType<typeof judgeResponse>["verdicts"];
}

/** A finding of the operation's own checks or the traffic rules; `warning`: only a warning (labels reordered). */
type OperationFinding = { check: string; problem: string; operation?: string; side?: Side; warning?: true };

/**
 * Judges each exchange that passed the proxy, in both directions, with the code the suite and the sandbox use: the
 * request by the spec's request rules (lib/openapi/request-inspection.ts), the answer by the suite's response checks
 * and its download and metadata checks, and the sequence by the traffic rules.
 */
export class TrafficJudge {
  private readonly inspect: ReturnType<typeof createRequestInspector>;
  private readonly route: ReturnType<typeof createRouter>;
  private readonly rules = new TrafficRules();
  private readonly tokensSeen = new Set<string>();
  // The secrets longest first (a secret that holds another is redacted whole), sorted again only when one is added.
  private secretList: string[] = [];
  // The key of the environment, kept first: it is never forgotten.
  private readonly apiKey: string | undefined;
  // Told once: later answers of the same shape need no second parse for it.
  private diagnosed = false;

  constructor(
    private readonly spec: OpenApiValidator,
    private readonly upstream: string,
    private readonly limits: JudgingLimits & { maxResponseBytes: number },
    private readonly events: JudgeEvents,
    apiKey: string | undefined,
  ) {
    this.inspect = createRequestInspector(spec);
    this.route = createRouter(spec);
    this.apiKey = apiKey || undefined;
    if (this.apiKey) this.learnSecret(this.apiKey);
  }

  /** Every text the proxy shows goes through here: the key, and every bearer token that passed, are redacted. */
  redact(text: string): string {
    return redactSecrets(text, this.secretList);
  }

  /**
   * A request refused because the proxy was stopping, as reports show it: its method and path (the query left out:
   * it reached nothing), redacted, its own bearer token learned first, as for an exchange that is judged.
   */
  refused(method: string, target: string, headers: Record<string, string | string[] | undefined>) {
    const token = bearerToken(headerValue(headers, "authorization"));
    if (token) this.learnSecret(token);
    return { method, path: this.redact(pathOf(target)) };
  }

  /**
   * Adds a token (and its near misses) to what is redacted. The oldest token is forgotten past MOST_SECRETS: every
   * text is redacted when it is recorded, and an exchange's own token is always learned before it is judged.
   */
  private learnSecret(token: string): void {
    if (this.tokensSeen.has(token)) return;
    this.tokensSeen.add(token);
    if (this.tokensSeen.size > MOST_SECRETS)
      this.tokensSeen.delete([...this.tokensSeen][this.apiKey === undefined ? 0 : 1]!);
    const secrets = new Set([...this.tokensSeen].flatMap((known) => secretsOf(known)));
    this.secretList = [...secrets].sort((a, b) => b.length - a.length);
  }

  /**
   * A request arrived: an update is in flight from now on, for the traffic rules. Never throws: the request must pass
   * whatever the rules do; a rule that fails is reported with the exchange (RuleFailure).
   */
  requestArrived(method: string, target: string, startedAt: number): unknown {
    try {
      const match = this.route(method, pathOf(target));
      const fileId = match?.params.file_id;
      return match?.operationId === "updateFile" && fileId !== undefined
        ? this.rules.updateStarted(fileId, startedAt)
        : undefined;
    } catch (error) {
      return new RuleFailure(unexpected(error, `noting ${method} ${pathOf(target).slice(0, 120)} as it arrived`));
    }
  }

  /** The upstream did not answer (or the app went away): an update whose outcome is unknown stays one that came between. Never throws. */
  unanswered(failure: Pick<UpstreamFailure, "token" | "method" | "target">): void {
    let problem = failure.token instanceof RuleFailure ? failure.token.problem : undefined;
    try {
      if (failure.token && !problem)
        this.rules.updateEnded(failure.token as UpdateHandle, performance.now(), undefined, undefined);
    } catch (error) {
      problem = unexpected(
        error,
        `noting that ${failure.method} ${pathOf(failure.target).slice(0, 120)} got no answer`,
      );
    }
    if (!problem) return;
    const shown: ShownRequest = {
      auth: "none",
      method: failure.method,
      path: pathOf(failure.target),
      url: this.urlOf(failure.target),
      headers: {},
    };
    this.events.finding({
      side: "proxy",
      operation: `${failure.method} ${shown.path.slice(0, 120)}`,
      check: TRAFFIC_RULES,
      problem: this.redact(problem),
      curl: this.redact(curlFor(shown)),
      status: 0,
    });
  }

  /** Judges one exchange that passed whole; returns the findings it reported on it (for --findings-header). */
  judge(passed: PassedExchange): ProxyFinding[] {
    // A browser's CORS preflight is the browser's question, not the app's request: the spec documents no OPTIONS.
    if (passed.method === "OPTIONS" && passed.requestHeaders["access-control-request-method"] !== undefined) {
      this.events.preflight();
      return [];
    }
    const token = bearerToken(headerValue(passed.requestHeaders, "authorization"));
    if (token) this.learnSecret(token);
    const requestText =
      passed.requestBody.total === 0
        ? undefined
        : passed.requestBody.cut
          ? undefined
          : new TextDecoder().decode(passed.requestBody.bytes);
    const inspected = this.inspect({
      method: passed.method,
      rawPath: pathOf(passed.target),
      headers: passed.requestHeaders,
      body: requestText,
    });
    // An undocumented path is named as it came, redacted: a key in the path (/keys/<key>/ping) is no name to print.
    const operation = inspected.operationId ?? this.redact(`${passed.method} ${pathOf(passed.target).slice(0, 120)}`);
    this.events.seen(inspected.operationId, passed.status);
    // Decoded before anything is reported: a diagnosis of the answer's shape comes before the findings it explains.
    const decoded = inspected.operationId
      ? decodeBody(
          passed.responseBody,
          headerValue(passed.responseHeaders, "content-encoding"),
          this.limits.maxResponseBytes,
        )
      : undefined;
    const shown = this.shownRequest(passed, token !== undefined, requestText);
    const ex =
      inspected.operationId && decoded && "text" in decoded
        ? exchangeFrom(
            inspected.operationId as OperationId,
            shown,
            {
              status: passed.status,
              headers: headersOf(passed.responseHeaders),
              text: decoded.text,
              invalidUtf8: decoded.invalidUtf8,
              durationMs: passed.endedAt - passed.startedAt,
            },
            // Judged as received; only what is reported is redacted (the reporter).
            { secrets: this.secretList, credentials: [token, this.apiKey].filter((c): c is string => c !== undefined) },
          )
        : undefined;
    // The suite's own response-check path; its verdicts are reported after the app's findings, its diagnosis before.
    const judged = ex && judgeResponse(ex, this.spec, this.limits);
    if (judged?.diagnosis) this.tellDiagnosis(judged.diagnosis);
    const reporter = this.reporter(passed, operation, shown);
    this.judgeRequest(passed, inspected, requestText, operation, reporter.report);
    if (!inspected.operationId || !decoded) return reporter.found;
    if ("unchecked" in decoded) {
      this.events.notChecked(operation, decoded.unchecked);
      return reporter.found;
    }
    if (ex && judged) this.reportAnswer(passed, { inspected, operation, ex, verdicts: judged.verdicts }, reporter);
    return reporter.found;
  }

  /** How one exchange's findings are reported: redacted, told to the listener, and kept for judge() to return. */
  private reporter(passed: PassedExchange, operation: string, shown: ShownRequest): Reporter {
    const found: ProxyFinding[] = [];
    // Made only for an exchange that has something to report: most have nothing.
    let curl: string | undefined;
    const curlOf = () => (curl ??= this.redact(curlFor(shown)));
    const report = (side: Side, check: string, problem: string, as = operation) => {
      const finding = {
        side,
        operation: as,
        check,
        problem: this.redact(problem),
        curl: curlOf(),
        status: passed.status,
      };
      found.push(finding);
      this.events.finding(finding);
    };
    return { found, report, curlOf };
  }

  /** The request's own findings: the spec's request rules, a name twice in its JSON, and the traffic rules' update. */
  private judgeRequest(
    passed: PassedExchange,
    inspected: InspectedRequest,
    requestText: string | undefined,
    operation: string,
    report: Reporter["report"],
  ): void {
    for (const finding of inspected.findings) {
      // A body over the capture limit was not read: its rules are not judged.
      if (passed.requestBody.cut && finding.rule === "request_body_valid") continue;
      report("app", finding.rule, finding.problem);
    }
    // A name twice in one object of the app's JSON: as in an answer (json_well_formed), receivers disagree on it.
    const repeated =
      inspected.json !== undefined && requestText !== undefined ? repeatedMemberName(requestText) : undefined;
    if (repeated !== undefined) {
      report(
        "app",
        "json_well_formed",
        `the request body names ${JSON.stringify(repeated)} twice in one object: JSON.parse keeps the last value, other parsers the first, strict ones fail`,
      );
    }
    if (passed.requestBody.cut && inspected.operationId)
      this.events.notChecked(operation, `a request body over ${this.limits.maxResponseBytes} bytes`);
    if (passed.token instanceof RuleFailure) report("proxy", TRAFFIC_RULES, passed.token.problem);
    else if (passed.token) {
      try {
        this.rules.updateEnded(passed.token as UpdateHandle, passed.endedAt, passed.status, inspected.json);
      } catch (error) {
        report(
          "proxy",
          TRAFFIC_RULES,
          unexpected(
            error,
            `noting the answer HTTP ${passed.status} to ${passed.method} ${pathOf(passed.target).slice(0, 120)}`,
          ),
        );
      }
    }
  }

  /** The answer's findings: the suite's response checks, then its download and metadata checks and the traffic rules. */
  private reportAnswer(
    passed: PassedExchange,
    { inspected, operation, ex, verdicts }: JudgedAnswer,
    { report, curlOf }: Reporter,
  ): void {
    for (const { check, failures, warnings } of verdicts) {
      for (const problem of failures) report("service", check, problem);
      for (const message of warnings)
        this.events.warning({ operation, check, problem: this.redact(message), curl: curlOf(), status: passed.status });
    }
    for (const { check, problem, operation: as, side, warning } of this.operationRules(ex, inspected, passed)) {
      if (warning)
        this.events.warning({
          operation: as ?? operation,
          check,
          problem: this.redact(problem),
          curl: curlOf(),
          status: passed.status,
        });
      else report(side ?? "service", check, problem, as);
    }
  }

  /** Tells the listener the diagnosis line when a metadata answer has the service's own document's shape. */
  private tellDiagnosis(line: string): void {
    if (!this.events.diagnosis || this.diagnosed) return;
    this.diagnosed = true;
    this.events.diagnosis(this.redact(line));
  }

  /** The download and metadata checks of the suite, and the traffic rules, on one answer. */
  private operationRules(ex: Exchange, inspected: InspectedRequest, passed: PassedExchange): OperationFinding[] {
    const fileId = inspected.params.file_id;
    const found: OperationFinding[] = [];
    if (fileId === undefined || ex.invalidUtf8 !== undefined) return found;
    if (ex.operationId === "getFileDownloadUrl" && ex.status === 200) {
      const download = downloadAnswerProblem(ex);
      if ("problem" in download) found.push({ check: "download_url_valid", problem: download.problem });
    }
    const metadata =
      ex.operationId === "getFile" && ex.status === 200
        ? (jsonBody(ex) as Record<string, unknown> | undefined)
        : undefined;
    if (metadata !== undefined) {
      const problem = metadataIdProblem(ex, fileId);
      if (problem) found.push({ check: "metadata_of_requested_file", problem });
    }
    const isRead = ex.operationId === "getFile" || ex.operationId === "getFileDownloadUrl";
    if (isRead && (ex.status === 200 || ex.status === 422)) {
      const read = {
        operation: ex.operationId,
        startedAt: passed.startedAt,
        endedAt: passed.endedAt,
        exists: ex.status === 200,
        metadata,
      };
      try {
        found.push(...this.rules.read(fileId, read));
      } catch (error) {
        // The proxy's own failure: this read is not judged across the traffic, and the run cannot pass.
        found.push({
          side: "proxy",
          check: TRAFFIC_RULES,
          problem: unexpected(
            error,
            `judging the read HTTP ${ex.status} of ${JSON.stringify(fileId)} across the traffic`,
          ),
        });
      }
    }
    return found;
  }

  /** Where a request target goes upstream, for curl. */
  private urlOf(target: string): string {
    return `${this.upstream.replace(/\/+$/, "")}${target}`;
  }

  /** The request as reports show it: the key's header written for curl to take from $FILE_LIBRARY_API_KEY. */
  private shownRequest(passed: PassedExchange, keyed: boolean, body: string | undefined): ShownRequest {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(passed.requestHeaders)) {
      if (value === undefined || SHOWN_NOT.has(name)) continue;
      headers[name] = this.redact(Array.isArray(value) ? value.join(", ") : value);
    }
    if (keyed) headers.authorization = "Bearer [REDACTED]";
    return {
      auth: keyed ? "valid" : "none",
      method: passed.method,
      path: pathOf(passed.target),
      url: this.urlOf(passed.target),
      headers,
      // A long body is elided: reports stay bounded whatever the traffic (docs/checking-a-server.md).
      ...(passed.requestBody.total === 0
        ? {}
        : body === undefined || body.length > BODY_SHOWN_CHARS
          ? { body: elided(passed.requestBody) }
          : { body: this.redact(body) }),
    };
  }
}

// Headers curl sets on its own, or that belong to the connection to the proxy.
const SHOWN_NOT = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "authorization",
  "accept-encoding",
  "user-agent",
]);

const pathOf = (target: string) => target.split("?", 1)[0]!;

/** Headers as the checks read them (the Fetch API's shape), from node's or undici's object. */
function headersOf(headers: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.append(name, one);
  }
  return out;
}
