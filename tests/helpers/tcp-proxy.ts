import net from "node:net";

export type TcpProxy = {
  port: number;
  /** Bytes forwarded from clients to the target so far. */
  readonly bytesUp: number;
  /** Cuts every connection and refuses new ones (ECONNREFUSED), like a database gone away. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
  /** Calls `hook` each time client bytes pass (tests cut mid-stream from here). */
  onBytesUp(hook: (total: number) => void): void;
  /** Calls `hook` with each chunk of client bytes (tests read the queries sent from here). */
  onChunkUp(hook: ((chunk: Buffer) => void) | undefined): void;
};

/**
 * A loopback TCP proxy between the app and a real server (PostgreSQL, s3rver): the test cuts
 * and restores it to play a network fault. The real server is never stopped.
 */
export async function startTcpProxy(
  targetPort: number,
  options: { listening?: boolean; port?: number } = {},
): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let bytesUp = 0;
  let hook: ((total: number) => void) | undefined;
  let chunkHook: ((chunk: Buffer) => void) | undefined;
  let server: net.Server | undefined;

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(targetPort, "127.0.0.1");
        sockets.add(client);
        sockets.add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on("data", (chunk) => {
          bytesUp += chunk.byteLength;
          hook?.(bytesUp);
          chunkHook?.(chunk);
        });
        client.pipe(upstream);
        upstream.pipe(client);
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        server = s;
        resolve((s.address() as net.AddressInfo).port);
      });
    });

  let port = options.port ?? 0;
  if (options.listening === false) {
    // Reserve a free port now, so the app can be given its address before the proxy opens.
    const probe = net.createServer();
    port = await new Promise<number>((resolve) =>
      probe.listen(0, "127.0.0.1", () => resolve((probe.address() as net.AddressInfo).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
  } else {
    port = await listen(port);
  }

  const cut = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (s) await new Promise((resolve) => s.close(resolve));
  };

  return {
    port,
    get bytesUp() {
      return bytesUp;
    },
    cut,
    async restore() {
      if (!server) await listen(port);
    },
    close: cut,
    onBytesUp(next) {
      hook = next;
    },
    onChunkUp(next) {
      chunkHook = next;
    },
  };
}
