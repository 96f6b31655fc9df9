/**
 * How long the proxy's stop waits for exchanges in flight (and the recording), by default: an upstream that holds a
 * request cannot hold the run. A module of its own: the package's public types re-export it without the forwarding's
 * Node types.
 */
export const DRAIN_MS = 5_000;
