/**
 * The handshake of a suite started before its target was ready: the suite's global set-up says it is listening
 * (`listening`), and the runner answers once the target is ready, with the mock's URL when it started one (`ready`).
 */
export type HandshakeMessage = { listening: true } | { ready: true; mockUrl?: string | undefined };
