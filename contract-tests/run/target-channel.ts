import { BroadcastChannel } from "node:worker_threads";

/**
 * The mock's URL, from the global set-up to the suite's worker threads (one process: a BroadcastChannel). The
 * workers start, load the checks and compile the spec while the mock is still starting, and wait for its URL only
 * before their first request.
 */
type TargetMessage = { ask: true } | { mockUrl: string } | { failed: string };

// Worker threads share their process's pid: one channel per run of the suite.
const channelName = () => `file-library-contract-target:${process.pid}`;

/** The global set-up's side: answers each worker's ask with the URL, now or as soon as it is known. */
export interface TargetOffer {
  /** The mock's URL, or why there is none (the workers' wait then fails with it). */
  settle(answer: { mockUrl: string } | { failed: string }): void;
  close(): void;
}

/** Opens the global set-up's side of the channel; it does not keep the process alive. */
export function offerTarget(): TargetOffer {
  const channel = new BroadcastChannel(channelName());
  let known: TargetMessage | undefined;
  channel.onmessage = (event) => {
    if (known && "ask" in (event.data as TargetMessage)) channel.postMessage(known);
  };
  channel.unref();
  return {
    settle(answer) {
      known = answer;
      channel.postMessage(answer);
    },
    close: () => channel.close(),
  };
}

/** A worker's side: resolves with the mock's URL once the global set-up knows it, or rejects with why there is none. */
export function receiveTarget(): Promise<string> {
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel(channelName());
    channel.onmessage = (event) => {
      const message = event.data as TargetMessage;
      if ("ask" in message) return;
      channel.close();
      if ("mockUrl" in message) resolve(message.mockUrl);
      else reject(new Error(message.failed));
    };
    channel.postMessage({ ask: true } satisfies TargetMessage);
  });
}
