import type { JudgeEvents } from "./judge-traffic.ts";
import type { UpstreamFailure } from "./forward.ts";
import type { CountedFinding, CountedWarning, ProxyFinding, RefusedRequests } from "./proxy-summary.ts";

const EXAMPLES_KEPT = 20;
// Kinds of finding kept: requests to paths of the app's own could make a kind each (operation_exists of each path).
const KINDS_KEPT = 500;
/** Kinds of finding kept of one check on one side (operation_exists of 20 paths, say): the rest are counted. */
export const KINDS_PER_CHECK = 20;
/** Distinct messages kept of one kind of finding, each with its count: the findings of further messages are counted. */
export const MESSAGES_PER_KIND = 5;
/** The most characters of a problem, a curl command or a request target a report shows (docs: the reports' bounds). */
export const PROBLEM_CHARS = 1_000;
export const CURL_CHARS = 4_000;
const TARGET_CHARS = 200;
/** Requests refused while stopping that a report names: a few say which; the count says how many. */
const REFUSED_KEPT = 5;

/** A text cut to `most` characters, saying how long it was: what a report shows stays bounded whatever the traffic. */
export function capped(text: string, most: number): string {
  return text.length > most ? `${text.slice(0, most)}… (${text.length} characters in all)` : text;
}

/**
 * What a proxy run saw, as counts: the operations and statuses, each kind of finding once with its count and its
 * distinct messages (MESSAGES_PER_KIND at most, each counted: memory stays bounded however long the traffic), what was
 * not checked and why, and what the upstream did not answer. Each distinct message of a kind is told to `say` at once,
 * one line each; so is the diagnosis of an answer in the service's own document's shape, before the findings it explains.
 */
export class TrafficLog implements JudgeEvents {
  readonly statuses = new Map<string, Map<number, number>>();
  readonly findings = new Map<string, CountedFinding>();
  readonly warnings = new Map<string, CountedWarning>();
  readonly unchecked = new Map<string, { operation: string; reason: string; count: number }>();
  readonly upstreamFailures: Array<Pick<UpstreamFailure, "method" | "target" | "reason">> = [];
  upstreamFailureCount = 0;
  clientsGone = 0;
  /** Exchanges still in flight when the proxy stopped, cut after the drain (their apps got a 502). */
  cutAtStop = 0;
  /** Requests that came once the proxy was stopping: answered 503, forwarded nowhere, judged by nothing. */
  readonly refusedWhileStopping: RefusedRequests = { count: 0, examples: [] };
  /** Findings of kinds past KINDS_KEPT, or past KINDS_PER_CHECK of their check: counted, not kept. */
  kindsLeftOut = 0;
  /** Those findings, counted by side and check. */
  readonly leftOut = new Map<string, { side: ProxyFinding["side"]; check: string; count: number }>();
  // Kinds kept of each side and check.
  private readonly kindsOf = new Map<string, number>();
  exchanges = 0;
  /** Exchanges the upstream answered whole (judged or not, preflights too). */
  answered = 0;
  /** Requests that matched no operation of the spec. */
  unmatched = 0;
  /** Browsers' CORS preflights: forwarded, not judged. */
  preflights = 0;
  /** The first diagnosis told (checks/service-document-shape.ts): why the metadata's checks fail, in one line. */
  diagnosed: string | undefined;

  preflight(): void {
    this.preflights++;
  }

  constructor(private readonly say: (line: string) => void) {}

  seen(operation: string | undefined, status: number): void {
    this.exchanges++;
    if (operation === undefined) {
      this.unmatched++;
      return;
    }
    const counts = this.statuses.get(operation) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    this.statuses.set(operation, counts);
  }

  finding(finding: ProxyFinding): void {
    const key = `${finding.side}\u0000${finding.operation}\u0000${finding.check}`;
    const known = this.findings.get(key);
    if (known) {
      known.count++;
      this.message(known, finding);
      return;
    }
    const check = `${finding.side}\u0000${finding.check}`;
    const kinds = this.kindsOf.get(check) ?? 0;
    if (this.findings.size >= KINDS_KEPT || kinds >= KINDS_PER_CHECK) {
      this.kindsLeftOut++;
      const left = this.leftOut.get(check) ?? { side: finding.side, check: finding.check, count: 0 };
      left.count++;
      this.leftOut.set(check, left);
      return;
    }
    this.kindsOf.set(check, kinds + 1);
    const problem = capped(finding.problem, PROBLEM_CHARS);
    const curl = capped(finding.curl, CURL_CHARS);
    const kept: CountedFinding = {
      ...finding,
      problem,
      curl,
      count: 1,
      messages: [{ problem, count: 1, curl }],
      messagesLeftOut: 0,
    };
    this.findings.set(key, kept);
    this.sayFinding(kept, problem, curl);
  }

  /** Another finding of a known kind: its message counted, kept (and said) when it is new and the kind has room. */
  private message(kind: CountedFinding, finding: ProxyFinding): void {
    const problem = capped(finding.problem, PROBLEM_CHARS);
    const same = kind.messages.find((m) => m.problem === problem);
    if (same) same.count++;
    else if (kind.messages.length >= MESSAGES_PER_KIND) kind.messagesLeftOut++;
    else {
      const curl = capped(finding.curl, CURL_CHARS);
      kind.messages.push({ problem, count: 1, curl });
      this.sayFinding(kind, problem, curl);
    }
  }

  private sayFinding(kind: CountedFinding, problem: string, curl: string): void {
    this.say(
      `contract proxy: FINDING (${kind.side}) ${kind.operation} ${kind.check}: ${problem}\n    reproduce: ${curl}`,
    );
  }

  diagnosis(line: string): void {
    if (this.diagnosed !== undefined) return;
    this.diagnosed = line;
    this.say(`contract proxy: DIAGNOSIS: ${line}`);
  }

  warning(warning: Omit<ProxyFinding, "side">): void {
    const key = `${warning.operation}\u0000${warning.check}`;
    const known = this.warnings.get(key);
    if (known) {
      known.count++;
      return;
    }
    if (this.warnings.size >= KINDS_KEPT) return;
    const kept = {
      ...warning,
      problem: capped(warning.problem, PROBLEM_CHARS),
      curl: capped(warning.curl, CURL_CHARS),
      count: 1,
    };
    this.warnings.set(key, kept);
    this.say(`contract proxy: WARNING ${kept.operation} ${kept.check}: ${kept.problem}`);
  }

  notChecked(operation: string, reason: string): void {
    const key = `${operation}\u0000${reason}`;
    const known = this.unchecked.get(key);
    if (known) known.count++;
    else if (this.unchecked.size < KINDS_KEPT)
      this.unchecked.set(key, { operation, reason: capped(reason, PROBLEM_CHARS), count: 1 });
  }

  /** A request refused because the proxy was stopping, its path already redacted: counted, the first few kept. */
  refused(request: { method: string; path: string }): void {
    if (this.refusedWhileStopping.count++ < REFUSED_KEPT)
      this.refusedWhileStopping.examples.push({ method: request.method, path: capped(request.path, TARGET_CHARS) });
  }

  /** The upstream did not answer (the app got 502), or its answer broke off: counted apart from findings. */
  upstreamFailed(
    failure: Pick<UpstreamFailure, "method" | "target" | "reason">,
    redact: (text: string) => string,
  ): void {
    const target = capped(redact(failure.target), TARGET_CHARS);
    const reason = capped(redact(failure.reason), PROBLEM_CHARS);
    if (this.upstreamFailureCount++ === 0)
      this.say(`contract proxy: the upstream did not answer ${failure.method} ${target}: ${reason}`);
    if (this.upstreamFailures.length < EXAMPLES_KEPT)
      this.upstreamFailures.push({ method: failure.method, target, reason });
  }
}
