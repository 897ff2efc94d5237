import type { Run } from "../../domain/run.js";
import { isServerPath } from "../../domain/webhook.js";
import { registeredLoopback } from "../../http/sdk-loopback.js";
import { runToWire } from "../../rest/run-wire.js";
import type { ServiceContext } from "../service-context.js";

const ATTEMPTS = 3;
const FIRST_RETRY_DELAY_MS = 500;
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * POSTs the finished run (its REST shape) to the run's webhook URL, retrying failures with
 * backoff. Fire and forget: the worker never waits for a slow receiver, and a receiver that keeps
 * failing only costs log lines.
 */
export function sendRunWebhook(ctx: ServiceContext, url: string, run: Run): void {
  const body = JSON.stringify(runToWire(run));
  // A path on this server goes in-process to its routes (custom routes, http.app); a worker
  // without the HTTP API in its process has none to deliver to.
  const send = isServerPath(url) ? registeredLoopback() : fetch;
  if (!send) {
    ctx.log.error({ url, runId: run.runId }, "webhook to a path of this server, but this process serves no HTTP API");
    return;
  }
  void (async () => {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const response = await send(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        if (response.ok) return;
        ctx.log.warn({ url, status: response.status, attempt, runId: run.runId }, "webhook refused");
      } catch (error) {
        ctx.log.warn({ err: error, url, attempt, runId: run.runId }, "webhook failed");
      }
      if (attempt < ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, FIRST_RETRY_DELAY_MS * 2 ** (attempt - 1)));
    }
    ctx.log.error({ url, runId: run.runId }, "webhook gave up");
  })();
}
