/**
 * A TCP proxy in front of a real server that can turn into a black hole: connections accepted,
 * nothing forwarded either way, nothing ever closed. That is a database "reachable but not
 * answering" (a network partition, a frozen server), which timeouts alone must get the app out of.
 * Without a target it is a black hole from the start.
 */
import { createServer, type Server, Socket } from 'node:net';

export class TcpProxy {
  readonly port: number;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  /** Forwarded connections still open: those a black hole cut off are closed on `forward()`. */
  readonly #cut = new Set<Socket>();
  #forwarding: boolean;

  private constructor(server: Server, port: number, forwarding: boolean) {
    this.#server = server;
    this.port = port;
    this.#forwarding = forwarding;
  }

  static async start(target?: { readonly host: string; readonly port: number }): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => {
      if (proxy === undefined) client.destroy();
      else proxy.#accept(client, target);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    proxy = new TcpProxy(server, port, target !== undefined);
    return proxy;
  }

  /** Stops forwarding: open connections go silent, new ones are accepted and never answered. */
  blackHole(): void {
    this.#forwarding = false;
  }

  /** Forwards new connections again; those the black hole cut off are closed. */
  forward(): void {
    this.#forwarding = true;
    for (const socket of this.#cut) socket.destroy();
    this.#cut.clear();
  }

  /** Connections accepted so far and still open. */
  get connections(): number {
    return this.#sockets.size;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  #accept(client: Socket, target: { readonly host: string; readonly port: number } | undefined) {
    this.#track(client);
    if (!this.#forwarding || target === undefined) return;
    const upstream = new Socket();
    this.#track(upstream);
    upstream.connect(target.port, target.host);
    const pair = [client, upstream];
    for (const socket of pair) {
      this.#cut.add(socket);
      socket.on('close', () => this.#cut.delete(socket));
    }
    client.on('data', (chunk) => {
      if (this.#forwarding) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (this.#forwarding) client.write(chunk);
    });
    // A side closing while forwarding closes the other; in the black hole nothing is said.
    client.on('close', () => {
      if (this.#forwarding) upstream.destroy();
    });
    upstream.on('close', () => {
      if (this.#forwarding) client.destroy();
    });
  }
}
