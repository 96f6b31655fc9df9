import type { TestContext } from "vitest";
import type { Exchange } from "./exchange.ts";

/** What a report shows of one exchange: the request line and the start of the answer; the key is already redacted. */
export interface ExchangeEvidence {
  method: string;
  path: string;
  url: string;
  status: number;
  contentType: string | null;
  bodyExcerpt: string;
}

declare module "vitest" {
  interface TaskMeta {
    /** Every exchange the check made, in order. */
    exchanges?: ExchangeEvidence[];
    /** The exchange a failed matcher was about. */
    failedExchange?: ExchangeEvidence;
    /** Contract warnings: the check passed, but something looked wrong. */
    warnings?: string[];
  }
}

const EXCERPT = 200;
let current: TestContext | undefined;

/** Remembers the running check, so that helpers without a context can attach evidence to it. */
export function setCurrentTest(context: TestContext | undefined): void {
  current = context;
}

/** The evidence of an exchange, short enough for a one-line report. */
export function evidenceOf(ex: Exchange): ExchangeEvidence {
  const oneLine = ex.text.replace(/\s+/g, " ");
  return {
    method: ex.request.method,
    path: ex.request.path,
    url: ex.request.url,
    status: ex.status,
    contentType: ex.headers.get("content-type"),
    bodyExcerpt: oneLine.length > EXCERPT ? `${oneLine.slice(0, EXCERPT)}…` : oneLine,
  };
}

/** Attaches an exchange to the running check. */
export function recordExchange(ex: Exchange): void {
  if (current) (current.task.meta.exchanges ??= []).push(evidenceOf(ex));
}

/** Marks the exchange a failed matcher was about. */
export function recordFailedExchange(ex: Exchange): void {
  if (current) current.task.meta.failedExchange = evidenceOf(ex);
}

/** Attaches a warning to the running check. */
export function recordWarning(message: string): void {
  if (current) (current.task.meta.warnings ??= []).push(message);
}
