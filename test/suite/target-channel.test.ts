import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { offerTarget, receiveTarget, type TargetOffer } from "../../contract-tests/run/target-channel.ts";

describe("target-channel: the mock's URL, from the global set-up to the suite's workers", () => {
  let offer: TargetOffer | undefined;
  afterEach(() => offer?.close());

  it("a worker that asks before the URL is known gets it once it is", async () => {
    offer = offerTarget();
    let got: string | undefined;
    const received = receiveTarget().then((url) => (got = url));
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toBeUndefined();
    offer.settle({ mockUrl: "http://127.0.0.1:4010" });
    await received;
    expect(got).toBe("http://127.0.0.1:4010");
  });

  it("a worker that asks after the URL is known gets it at once", async () => {
    offer = offerTarget();
    offer.settle({ mockUrl: "http://127.0.0.1:4011" });
    await expect(receiveTarget()).resolves.toBe("http://127.0.0.1:4011");
  });

  it("a failure reaches every worker as the reason of its rejection", async () => {
    offer = offerTarget();
    const waiting = [receiveTarget(), receiveTarget()];
    offer.settle({ failed: "No server to check: the runner started no mock." });
    for (const wait of waiting) await expect(wait).rejects.toThrow("No server to check: the runner started no mock.");
  });

  it("reaches a real worker thread of the same process", async () => {
    offer = offerTarget();
    // The worker's side as the suite's worker runs it: this very module, in a thread of its own.
    const module = new URL("../../contract-tests/run/target-channel.ts", import.meta.url).href;
    const worker = new Worker(
      `import { parentPort } from "node:worker_threads";
       (await import("tsx/esm/api")).register();
       const { receiveTarget } = await import(${JSON.stringify(module)});
       parentPort.postMessage(await receiveTarget());`,
      { eval: true },
    );
    const url = new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    offer.settle({ mockUrl: "http://127.0.0.1:4012" });
    await expect(url).resolves.toBe("http://127.0.0.1:4012");
    await worker.terminate();
  });
});
