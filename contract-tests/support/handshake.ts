/**
 * The handshake of a suite started before its target was ready: the suite's global set-up says it is listening
 * (`listening`), and the runner answers once the target is ready, with the settings that reach it (`ready`).
 */
export type HandshakeMessage = { listening: true } | { ready: true; env: Record<string, string> };
