import { parseHttpDate } from "./http-date.js";

/** Retries a call makes after the first attempt, unless told otherwise. */
export const DEFAULT_MAX_RETRIES = 2;
/** The first backoff wait; it doubles per retry. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** The longest backoff wait. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** A server's Retry-After is honoured up to this; longer asks fall back to backoff. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** How much jitter may shorten a backoff wait (never lengthen it). */
const JITTER = 0.25;

/** Whether an answer with this status should be retried; `x-should-retry: true|false` from the server wins. */
export function shouldRetryStatus(status: number, headers: Headers): boolean {
  const override = headers.get("x-should-retry")?.trim().toLowerCase();
  return override === "true" || (override !== "false" && ([408, 409, 429].includes(status) || status >= 500));
}

/** How long to wait before the next attempt, and what decided it. */
export interface RetryDelay {
  ms: number;
  source: "retry-after-ms" | "retry-after" | "backoff";
}

/**
 * The wait before retry number `retriesSoFar + 1`: the server's `retry-after-ms` or `Retry-After`
 * (seconds or an HTTP date) when present and at most 60 s, else 0.5 s doubling to 8 s, shortened by up to 25%.
 */
export function retryDelay(
  retriesSoFar: number,
  headers: Headers | undefined,
  now: number = Date.now(),
  random: () => number = Math.random,
): RetryDelay {
  const fromServer = serverDelay(headers, now);
  if (fromServer && fromServer.ms <= MAX_RETRY_AFTER_MS) return fromServer;
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retriesSoFar, MAX_RETRY_DELAY_MS);
  return { ms: Math.round(base * (1 - random() * JITTER)), source: "backoff" };
}

/**
 * The wait the server asked for: `retry-after-ms` (milliseconds), else `Retry-After` as RFC 9110 defines it, delay-seconds
 * (digits only) or an HTTP-date (a past one is 0); undefined when neither says, or says anything else ("-5", "1.", "+5").
 */
export function serverDelay(headers: Headers | undefined, now: number = Date.now()): RetryDelay | undefined {
  // A missing header reads as "null": neither a number nor a date.
  const ms = String(headers?.get("retry-after-ms")).trim();
  if (/^\d+(\.\d+)?$/.test(ms) && Number(ms) < Infinity) return { ms: Number(ms), source: "retry-after-ms" };
  const retryAfter = String(headers?.get("retry-after")).trim();
  const date = /^\d+$/.test(retryAfter) ? now + Number(retryAfter) * 1000 : parseHttpDate(retryAfter, now);
  return date === undefined ? undefined : { ms: Math.max(0, date - now), source: "retry-after" };
}

/** Waits `ms`, or less: an abort of the signal ends the wait at once (the caller then finds it aborted). Leaves no timer or listener behind. */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, signal?.aborted ? 0 : ms);
    signal?.addEventListener("abort", done);
  });
}
