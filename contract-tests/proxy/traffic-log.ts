import type { JudgeEvents } from "./judge-traffic.ts";
import type { UpstreamFailure } from "./forward.ts";
import type { CountedFinding, CountedWarning, ProxyFinding } from "./proxy-summary.ts";

const EXAMPLES_KEPT = 20;
// Kinds of finding kept: requests to paths of the app's own could make a kind each (operation_exists of each path).
const KINDS_KEPT = 500;

/**
 * What a proxy run saw, as counts: the operations and statuses, each kind of finding once with its count (so that
 * memory stays bounded however long the traffic), what was not checked and why, and what the upstream did not answer.
 * The first finding of each kind is told to `say` at once, one line each.
 */
export class TrafficLog implements JudgeEvents {
  readonly statuses = new Map<string, Map<number, number>>();
  readonly findings = new Map<string, CountedFinding>();
  readonly warnings = new Map<string, CountedWarning>();
  readonly unchecked = new Map<string, { operation: string; reason: string; count: number }>();
  readonly upstreamFailures: Array<Pick<UpstreamFailure, "method" | "target" | "reason">> = [];
  upstreamFailureCount = 0;
  clientsGone = 0;
  /** Findings of kinds past KINDS_KEPT: counted, not kept. */
  kindsLeftOut = 0;
  exchanges = 0;
  /** Requests that matched no operation of the spec. */
  unmatched = 0;
  /** Browsers' CORS preflights: forwarded, not judged. */
  preflights = 0;

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
      return;
    }
    if (this.findings.size >= KINDS_KEPT) {
      this.kindsLeftOut++;
      return;
    }
    this.findings.set(key, { ...finding, count: 1 });
    this.say(`contract proxy: FINDING (${finding.side}) ${finding.operation} ${finding.check}: ${finding.problem}\n    reproduce: ${finding.curl}`);
  }

  warning(warning: Omit<ProxyFinding, "side">): void {
    const key = `${warning.operation}\u0000${warning.check}`;
    const known = this.warnings.get(key);
    if (known) {
      known.count++;
      return;
    }
    if (this.warnings.size >= KINDS_KEPT) return;
    this.warnings.set(key, { ...warning, count: 1 });
    this.say(`contract proxy: WARNING ${warning.operation} ${warning.check}: ${warning.problem}`);
  }

  notChecked(operation: string, reason: string): void {
    const key = `${operation}\u0000${reason}`;
    const known = this.unchecked.get(key);
    if (known) known.count++;
    else if (this.unchecked.size < KINDS_KEPT) this.unchecked.set(key, { operation, reason, count: 1 });
  }

  /** The upstream did not answer (the app got 502), or its answer broke off: counted apart from findings. */
  upstreamFailed(failure: Pick<UpstreamFailure, "method" | "target" | "reason">, redact: (text: string) => string): void {
    if (this.upstreamFailureCount++ === 0) this.say(`contract proxy: the upstream did not answer ${failure.method} ${redact(failure.target)}: ${redact(failure.reason)}`);
    if (this.upstreamFailures.length < EXAMPLES_KEPT) this.upstreamFailures.push({ method: failure.method, target: redact(failure.target), reason: redact(failure.reason) });
  }
}
