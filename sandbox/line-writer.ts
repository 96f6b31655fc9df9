/** Writes log lines in batches: one write per turn of the event loop instead of one per line. */
export interface LineWriter {
  (line: string): void;
  /** Writes what is pending now (on shutdown). */
  flush(): void;
}

/**
 * Buffers lines and writes them once per event-loop turn. Writes to a pipe are synchronous on Linux,
 * so a write per request would put a system call on every request's path.
 */
export function lineWriter(stream: NodeJS.WritableStream = process.stdout): LineWriter {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = `${pending.join("\n")}\n`;
    pending = [];
    stream.write(text);
  };
  const write = (line: string) => {
    pending.push(line);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return Object.assign(write, { flush });
}
