import net from "node:net";

/** Why nothing answers at the base URL's host and port (within 5 s), or undefined when a connection opens. */
export async function unreachableReason(baseUrl: string): Promise<string | undefined> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  return new Promise<string | undefined>((resolve) => {
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port, timeout: 5_000 });
    socket.once("connect", () => (socket.destroy(), resolve(undefined)));
    socket.once("timeout", () => (socket.destroy(), resolve("no answer within 5 s")));
    socket.once("error", (error) => resolve(error.message));
  });
}
