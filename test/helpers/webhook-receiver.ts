import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  port: number;
  /** `http://host:port<path>`. */
  url(path: string): string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A webhook receiver on a real socket: records every request and answers what `answer` says for
 * the n-th request (from 1); 200 by default.
 */
export async function startWebhookReceiver(
  options: { host?: string; port?: number; answer?: (n: number) => { status: number; headers?: Record<string, string> } } = {},
): Promise<WebhookReceiver> {
  const host = options.host ?? "127.0.0.1";
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers as Record<string, string>, body });
      const { status, headers } = options.answer?.(received.length) ?? { status: 200 };
      response.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (just released), for a receiver that is down until started on it. */
export async function unusedPort(): Promise<number> {
  const receiver = await startWebhookReceiver();
  await receiver.close();
  return receiver.port;
}
