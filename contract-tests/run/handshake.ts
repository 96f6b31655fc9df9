/**
 * The handshake of a suite started before its target was ready. The suite's global set-up says it is listening
 * (`listening`); the runner answers once the bundled spec is written (`specReady`: the checks may load it), then once
 * the target is ready (`ready`), with the mock's URL when it started one.
 */
export type HandshakeMessage = { listening: true } | { specReady: true } | { ready: true; mockUrl?: string | undefined };
