import { recordWarning } from "./evidence.ts";

/** Reports a contract warning: the run still passes, but the summary says what looked wrong and where. */
export function warn(operationId: string, check: string, message: string): void {
  recordWarning(`${operationId} ${check}: ${message}`);
  console.warn(`WARNING ${operationId} ${check}: ${message}`);
}
