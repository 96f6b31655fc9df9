import { expect } from "vitest";
import type { Exchange } from "./exchange.ts";
import { toMatchOperation, type ExpectedStatus } from "./match-operation.ts";
import { spec } from "./spec.ts";

expect.extend({
  toMatchOperation(received: Exchange, operationId: string, expected?: ExpectedStatus) {
    return toMatchOperation(spec, received, operationId, expected);
  },
});

interface OperationMatchers<R = unknown> {
  /** The answer is documented for the operation (status, content type, body schema), and has the expected status. */
  toMatchOperation(operationId: string, expected?: ExpectedStatus): R;
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends OperationMatchers<T> {}
}
