import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { coerceError } from "../domain/errors.js";
import { addressProblem, isServerPath, webhookPolicyProblem, type WebhookUrlPolicy } from "../domain/webhook.js";

/** A receiver has this long to answer (headers and body) before the attempt counts as failed. */
export const WEBHOOK_REQUEST_TIMEOUT_MS = 10_000;

/** Sends a request to a path of this server without a socket (the HTTP app's own `request`). */
export type ServerPathFetch = (path: string, init: RequestInit) => Promise<Response>;

export type WebhookSendResult = { ok: true; status: number } | { ok: false; error: string; final: boolean };

/**
 * One delivery attempt: POSTs `body` with `headers` to `url`. Absolute URLs are checked against
 * the policy again (it may have changed since the run was created), and every address a hostname
 * resolves to is checked as the connection is made (the socket connects to the address that was
 * checked, so a DNS answer that changes between check and connect — rebinding — cannot slip
 * through). Redirects are never followed: a 3xx fails for good, so a receiver cannot bounce a
 * delivery onto the server's own network. The response body is discarded.
 * `final`: retrying cannot help (the policy refuses the URL or its addresses, or a redirect).
 */
export async function sendWebhook(
  request: { url: string; headers: Record<string, string>; body: string },
  options: { policy: WebhookUrlPolicy; serverPath: ServerPathFetch | null; signal: AbortSignal },
): Promise<WebhookSendResult> {
  const refused = webhookPolicyProblem(request.url, options.policy);
  if (refused) return { ok: false, error: refused, final: true };
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(WEBHOOK_REQUEST_TIMEOUT_MS)]);
  if (isServerPath(request.url)) {
    if (!options.serverPath) return { ok: false, error: "a path of this server, but this process serves no HTTP", final: false };
    try {
      const response = await options.serverPath(request.url, { method: "POST", headers: request.headers, body: request.body, signal });
      await response.body?.cancel();
      return judgeStatus(response.status, response.headers.get("location"));
    } catch (error) {
      return { ok: false, error: coerceError(error).message, final: false };
    }
  }
  return postOverNetwork(request, options.policy.allowedNetworks, signal);
}

class AddressRefusedError extends Error {}

function postOverNetwork(
  request: { url: string; headers: Record<string, string>; body: string },
  allowedNetworks: readonly string[],
  signal: AbortSignal,
): Promise<WebhookSendResult> {
  const url = new URL(request.url);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const outgoing = client.request(
      url,
      {
        method: "POST",
        headers: { ...request.headers, "content-length": Buffer.byteLength(request.body) },
        lookup: guardedLookup(allowedNetworks),
        signal,
        // A fresh connection per attempt: a kept-alive socket would skip the address check.
        agent: false,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(judgeStatus(response.statusCode ?? 0, response.headers.location ?? null)));
        response.on("error", (error) => resolve({ ok: false, error: error.message, final: false }));
      },
    );
    outgoing.on("error", (error) => {
      const cause = error instanceof AddressRefusedError ? error : (error as { cause?: unknown }).cause;
      if (cause instanceof AddressRefusedError) resolve({ ok: false, error: cause.message, final: true });
      else resolve({ ok: false, error: signal.aborted ? `no answer within ${WEBHOOK_REQUEST_TIMEOUT_MS} ms` : error.message, final: false });
    });
    outgoing.end(request.body);
  });
}

function judgeStatus(status: number, location: string | null): WebhookSendResult {
  if (status >= 200 && status < 300) return { ok: true, status };
  if (status >= 300 && status < 400) {
    return { ok: false, error: `the receiver answered ${status} (redirect to ${location ?? "nowhere"}); webhooks do not follow redirects`, final: true };
  }
  return { ok: false, error: `the receiver answered ${status}`, final: false };
}

/** dns.lookup, refusing when any address the name resolves to is not allowed. */
function guardedLookup(allowedNetworks: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      for (const { address } of addresses) {
        const problem = addressProblem(address, allowedNetworks);
        if (problem) return callback(new AddressRefusedError(`${hostname} resolves to ${address}: ${problem}`), "", 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
      callback(null, first.address, first.family);
    });
  };
}
