/**
 * The ceilings of any proxy, for the proxy bench: a relay that judges nothing. `--mode http` forwards with the
 * contract proxy's own transport (startForwarding: node:http in front, undici's dispatch behind) and drops what it
 * saw; `--mode tcp` pipes each connection's bytes to the upstream and back, parsing no HTTP at all.
 * Usage: relay-server.ts --mode http|tcp --upstream URL
 */
import { createConnection, createServer, type AddressInfo, type Socket } from "node:net";
import { parseArgs } from "node:util";
import { startForwarding } from "../contract-tests/proxy/forward.ts";

const { values } = parseArgs({ options: { mode: { type: "string" }, upstream: { type: "string" } } });
if (!URL.canParse(values.upstream ?? "")) {
  console.error("relay-server: --upstream takes the URL of the server to relay to, such as http://127.0.0.1:4010");
  process.exit(2);
}
const upstream = new URL(values.upstream!);

let url: string;
let close: () => Promise<void>;
if (values.mode === "http") {
  const forwarding = await startForwarding({
    upstream: upstream.href,
    captureBytes: 1_048_576,
    onExchange: () => {},
    onUpstreamFailure: () => {},
  });
  url = forwarding.url;
  close = async () => void (await forwarding.close());
} else if (values.mode === "tcp") {
  const sockets = new Set<Socket>();
  const server = createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    const peer = createConnection({ host: upstream.hostname, port: Number(upstream.port), noDelay: true });
    socket.pipe(peer).pipe(socket);
    socket.on("error", () => peer.destroy());
    peer.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
} else {
  console.error("relay-server: --mode is http or tcp");
  process.exit(2);
}
console.log(`${values.mode} relay listening at ${url}`);
process.once("SIGTERM", () => void close().then(() => process.exit(0)));
