import { afterEach, beforeAll, beforeEach, expect } from "vitest";
import { setCurrentTest } from "./evidence.ts";
import type { Exchange } from "../http/exchange.ts";
import { toMatchOperation, type ExpectedStatus } from "./match-operation.ts";
import { runContext, targetReady } from "./worker-context.ts";
import type { OperationId } from "../../src/errors.ts";

// The checks are collected while a mock may still be starting; their requests wait for it here (the hook's timeout, not the tests').
beforeAll(targetReady);
beforeEach((context) => setCurrentTest(context));
afterEach(() => setCurrentTest(undefined));

expect.extend({
  toMatchOperation(received: Exchange, operationId: OperationId, expected?: ExpectedStatus) {
    return toMatchOperation(runContext().spec, received, operationId, expected);
  },
});

interface OperationMatchers<R = unknown> {
  /** The answer is documented for the operation (status, content type, body schema), and has the expected status. */
  toMatchOperation(operationId: OperationId, expected?: ExpectedStatus): R;
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends OperationMatchers<T> {}
}
