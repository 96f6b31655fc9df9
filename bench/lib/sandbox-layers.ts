/** The layers of the sandbox that bench/sandbox-layers-server.ts stacks (`--layers N`: the first N), in order. */
export const LAYERS = [
  "node:http adapter, a fixed answer",
  "the core over memory storage",
  "SQLite storage (a file)",
  "CORS",
  "the request log",
] as const;
