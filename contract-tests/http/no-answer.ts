import { truncate } from "../../src/excerpt.ts";

/** What an attempt says when nothing listens where the request went. */
export const REFUSED = "nothing accepts connections there (ECONNREFUSED)";

/** Whether no attempt reached a server at all: every one was refused (the server is gone, or never was there). */
export const allRefused = (attempts: readonly FailedAttempt[]): boolean =>
  attempts.length > 0 && attempts.every((a) => a.reason === REFUSED);

/** One attempt of a request that got no HTTP answer. */
export interface FailedAttempt {
  /** 1 for the first try, 2 for the retry. */
  attempt: number;
  /** What happened, in words ("the server closed the connection before answering (other side closed)"). */
  reason: string;
  /** Milliseconds from sending the attempt to its failure. */
  afterMs: number;
  /** Whether the server closed or reset the connection (rather than a timeout, or nothing listening). */
  closedByServer: boolean;
  /** Whether the connection had carried earlier answers: a kept-alive connection, reused. */
  reusedConnection?: boolean | undefined;
  /** Milliseconds since the previous answer from this server. */
  idleMs?: number | undefined;
  /** The Keep-Alive header of that previous answer (the idle timeout the server advertised). */
  keepAlive?: string | undefined;
}

/** A request that got no HTTP answer: the request, every attempt, and a curl that repeats it. */
export interface NoAnswerEvidence {
  operationId: string;
  method: string;
  path: string;
  url: string;
  curl: string;
  attempts: FailedAttempt[];
}

/** The request got no HTTP answer; `attempts` says what happened to each try. */
export class NoAnswerError extends Error {
  override name = "NoAnswerError";
  constructor(
    readonly method: string,
    readonly url: string,
    readonly attempts: FailedAttempt[],
  ) {
    super(describeNoAnswer(method, url, attempts));
  }
}

/** One attempt in words, for a report line. */
export function describeAttempt(a: FailedAttempt): string {
  const connection = a.reusedConnection
    ? `, on a kept-alive connection${a.idleMs === undefined ? "" : ` ${(a.idleMs / 1000).toFixed(1)} s after the server's previous answer`}${a.keepAlive ? ` (it advertised Keep-Alive: ${a.keepAlive})` : ""}`
    : a.reusedConnection === false
      ? ", on a new connection"
      : "";
  return `attempt ${a.attempt}: ${a.reason}, ${a.afterMs} ms after sending${connection}`;
}

/** The whole failure on one line: which request, then every attempt. */
export function describeNoAnswer(method: string, url: string, attempts: readonly FailedAttempt[]): string {
  const { origin, pathname } = new URL(url);
  const count = attempts.length === 1 ? "" : ` after ${attempts.length} attempts`;
  return `${method} ${truncate(pathname, 120)} got no HTTP answer from ${origin}${count}: ${attempts.map(describeAttempt).join("; ")}`;
}
