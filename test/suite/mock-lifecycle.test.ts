// covers: lib/process.ts, scripts/mock.ts
import { describe, expect, it } from "vitest";
import { exitCodeOf, waitForOutput } from "../../lib/process.ts";
import { isRunning, startScript, waitUntilGone } from "../support/processes.ts";

describe("npm run mock", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("serves the spec on a free port and stops Prism on %s", { timeout: 60_000 }, async (signal) => {
    const script = startScript("scripts/mock.ts");
    try {
      const [, baseUrl, pid] = await waitForOutput(script, /listening at (http:\/\/127\.0\.0\.1:\d+) \(pid (\d+)\)/);
      const response = await fetch(`${baseUrl}/studio/v1/library/files/f1`, { headers: { authorization: "Bearer any" } });
      expect(response.status).toBe(200);
      expect(isRunning(Number(pid))).toBe(true);

      script.kill(signal);
      await exitCodeOf(script);
      await waitUntilGone(Number(pid));
      await expect(fetch(`${baseUrl}/studio/v1/library/files/f1`)).rejects.toThrow();
    } finally {
      script.kill("SIGKILL");
    }
  });
});
