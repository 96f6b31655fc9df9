import { randomUUID } from "node:crypto";
import { inject, type TestContext } from "vitest";
import { recordExchange } from "./evidence.ts";
import { exchange, type Exchange, type ExchangeRequest } from "./exchange.ts";
import { spec } from "./spec.ts";
import type { Target } from "./target.ts";

/** The server under test, handed over by the global setup. */
export const target: Target = inject("target");

/** Sends one request to the target and attaches it to the running check as evidence. */
export async function send(request: ExchangeRequest): Promise<Exchange> {
  const ex = await exchange(target, spec, request);
  recordExchange(ex);
  return ex;
}

/** An id that no server has: the prefix says who sent it, the UUID makes it unique. */
export const unknownFileId = (): string => `contract-unknown-${randomUUID()}`;

/** Skips a check that needs a server with state when the target is the stateless mock. */
export function needsRealServer(context: TestContext, why: string): void {
  if (target.mode === "mock") context.skip(`skipped against the mock: ${why}`);
}
