/** Reports a contract warning: the run still passes, but the output says what looked wrong and where. */
export function warn(operationId: string, check: string, message: string): void {
  console.warn(`WARNING ${operationId} ${check}: ${message}`);
}
