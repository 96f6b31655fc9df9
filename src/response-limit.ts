/** The most bytes read from one answer, unless told otherwise; see `ClientOptions.maxResponseBytes`. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_048_576;

// The answers whose body was cut at the limit, with the limit: the rest of the body was never read.
const cut = new WeakMap<Response, number>();

/** The limit an answer's body was cut at, or undefined when it was read whole. */
export const cutAt = (response: Response): number | undefined => cut.get(response);

/**
 * `fetch` whose answers' bodies end after `max` bytes (as they arrive, decompressed): past it the rest is not read,
 * the stream is cancelled (so the connection is closed, not reused), and `cutAt` says the body was cut.
 */
export function limitedFetch<Input, Init>(fetch: (input: Input, init?: Init) => Promise<Response>, max: number): (input: Input, init?: Init) => Promise<Response> {
  return async (input, init) => {
    const response = await fetch(input, init);
    const source = response.body;
    if (!source) return response;
    const reader = source.getReader();
    let seen = 0;
    const limited: Response = new Response(
      new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          seen += value.byteLength;
          if (seen <= max) return controller.enqueue(value);
          controller.enqueue(value.subarray(0, value.byteLength - (seen - max)));
          cut.set(limited, max);
          controller.close();
          void reader.cancel().catch(() => {});
        },
        cancel: (reason) => reader.cancel(reason),
      }),
      response,
    );
    // The answer as fetch gave it, for callers of withResponse: its URL and whether it was redirected.
    Object.defineProperties(limited, { url: { value: response.url }, redirected: { value: response.redirected } });
    return limited;
  };
}
