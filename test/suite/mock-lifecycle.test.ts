// covers: lib/process.ts, scripts/mock.ts
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { exitCodeOf, waitForOutput } from "../../lib/process.ts";
import { closedPort } from "../support/closed-port.ts";
import { isRunning, startScript, waitUntilGone } from "../support/processes.ts";

describe("npm run mock", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "serves the spec on a free port and stops Prism on %s",
    { timeout: 60_000 },
    async (signal) => {
      const script = startScript("scripts/mock.ts");
      try {
        const [, baseUrl, pid] = await waitForOutput(script, /listening at (http:\/\/127\.0\.0\.1:\d+) \(pid (\d+)\)/);
        const response = await fetch(`${baseUrl}/studio/v1/library/files/f1`, {
          headers: { authorization: "Bearer any" },
        });
        expect(response.status).toBe(200);
        expect(isRunning(Number(pid))).toBe(true);

        script.kill(signal);
        await exitCodeOf(script);
        await waitUntilGone(Number(pid));
        await expect(fetch(`${baseUrl}/studio/v1/library/files/f1`)).rejects.toThrow();
      } finally {
        script.kill("SIGKILL");
      }
    },
  );

  it("serves on the port --port names, and says in one line when that port is taken", { timeout: 60_000 }, async () => {
    const port = await closedPort();
    const script = startScript("scripts/mock.ts", ["--port", String(port)]);
    try {
      await waitForOutput(script, new RegExp(`listening at http://127\\.0\\.0\\.1:${port} `));
      expect(
        (
          await fetch(`http://127.0.0.1:${port}/studio/v1/library/files/f1`, {
            headers: { authorization: "Bearer any" },
          })
        ).status,
      ).toBe(200);
    } finally {
      script.kill("SIGTERM");
      await exitCodeOf(script);
    }

    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const taken = (holder.address() as { port: number }).port;
    try {
      const refused = startScript("scripts/mock.ts", ["--port", String(taken)]);
      let stderr = "";
      refused.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      expect(await exitCodeOf(refused)).toBe(2);
      expect(stderr).toBe(`mock: Port ${taken} on 127.0.0.1 is in use: pass --port 0 for a free one.\n`);
    } finally {
      holder.close();
    }
  });
});
