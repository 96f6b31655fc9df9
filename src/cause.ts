/**
 * The most specific error behind a failed fetch, as an Error: undici puts the socket's error in `cause`; anything
 * thrown that is not an Error becomes one with its text. The client's messages and the suite's reports read it.
 */
export function causeOf(error: unknown): Error {
  if (error instanceof Error) return error.cause instanceof Error ? error.cause : error;
  return new Error(String(error));
}
