import net from "node:net";

/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore, as a network failure or a
 * database restart would: `cut("reset")` closes every open connection and accepts new ones only
 * to close them at once (node-postgres then sees "Connection terminated unexpectedly", which has
 * no SQLSTATE); `cut("refuse")` also stops listening (ECONNREFUSED). `restore()` listens again on
 * the same port.
 */
export class CuttableProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private isCut = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<number> {
    this.server = net.createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** The URL with its host and port replaced by the proxy's. */
  proxiedUrl(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(this.port);
    return proxied.toString();
  }

  async cut(mode: "reset" | "refuse"): Promise<void> {
    this.isCut = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (mode === "refuse") await this.stopListening();
  }

  async restore(): Promise<void> {
    this.isCut = false;
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    await this.cut("refuse");
  }

  private async stopListening(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    if (this.isCut) {
      socket.destroy();
      return;
    }
    const upstream = net.connect(this.target);
    this.sockets.add(socket).add(upstream);
    const closeBoth = () => {
      socket.destroy();
      upstream.destroy();
      this.sockets.delete(socket);
      this.sockets.delete(upstream);
    };
    socket.pipe(upstream);
    upstream.pipe(socket);
    socket.on("error", closeBoth).on("close", closeBoth);
    upstream.on("error", closeBoth).on("close", closeBoth);
  }
}
