// Loaded into every Node process of one `npm run contract` by the bench (NODE_OPTIONS=--import, with
// FILE_LIBRARY_PHASE_PROBE naming a log file): each process and thread appends when it started, each User Timing
// mark (performance.mark) the kit's code sets, and when the suite sent its first request and got each answer.
// Plain JavaScript: it loads before tsx, into Prism and Redocly too. Bench only: nothing in the kit imports it.
import { appendFileSync } from "node:fs";
import diagnostics from "node:diagnostics_channel";
import path from "node:path";
import { isMainThread, threadId } from "node:worker_threads";

const log = process.env.FILE_LIBRARY_PHASE_PROBE;
if (log) {
  const role = roleOf(process.argv.slice(1), isMainThread);
  const now = () => performance.timeOrigin + performance.now();
  const write = (event, at = now()) =>
    appendFileSync(log, `${JSON.stringify({ at, event, role, pid: process.pid, thread: threadId })}\n`);
  // A worker thread shares its process's timeOrigin: its start is when this runs in it.
  write(isMainThread ? "process:start" : "worker:start", isMainThread ? performance.timeOrigin : now());
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    write(name);
    return mark(name, options);
  };
  let sent = false;
  diagnostics.subscribe("undici:request:create", () => {
    if (!sent) write("request:first");
    sent = true;
  });
  // Every answer: a worker may be ended without an exit event, so the last one is the latest written.
  diagnostics.subscribe("undici:request:headers", () => write("answer"));
}

/** Which process of the run this is, from its command line. */
function roleOf(args, main) {
  if (!main) return "worker";
  const [script = "", ...rest] = args.map((arg) => path.basename(arg));
  if (script === "npm-cli.js" || script === "npm") return "npm";
  if (script === "redocly") return `redocly ${rest[0] ?? ""}`.trim();
  if (script === "index.js" && args[0]?.includes("prism")) return "prism";
  if (script === "prism") return "prism";
  if (script === "vitest.mjs") return "vitest";
  return script.replace(/\.[cm]?[jt]s$/, "");
}
