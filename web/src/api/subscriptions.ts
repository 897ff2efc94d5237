import { createClient, type Client } from "graphql-ws/client";
import type { TypedDocumentString } from "../generated/graphql.js";
import { currentApiKey, reportKeyRefused } from "./api-key.js";
import { checkConnection, reportReachable } from "./connection.js";
import { ApiError, GRAPHQL_PATH } from "./graphql-client.js";

// graphql-ws's close code when the client itself closes an idle lazy connection.
const NORMAL_CLOSURE = 1000;

// graphql-ws's close code when connection_init is refused (the server found no valid key).
const FORBIDDEN = 4403;

let client: Client | null = null;
let clientKey: string | null = null;

/**
 * One graphql-ws connection for the page, on /graphql. Browsers cannot put headers on a
 * WebSocket, so the key travels in connection_init's payload (connectionParams), which the
 * server reads when the upgrade itself carried none. A new key means a new connection.
 */
function connection(): Client {
  const key = currentApiKey();
  if (client && clientKey === key) return client;
  void client?.dispose();
  clientKey = key;
  client = createClient({
    url: new URL(GRAPHQL_PATH, window.location.href).href.replace(/^http/, "ws"),
    connectionParams: () => (key ? { authorization: `Bearer ${key}` } : {}),
    retryAttempts: 3,
    shouldRetry: (event) => closeCode(event) !== FORBIDDEN,
    on: {
      connected: () => reportReachable(),
      closed: (event) => {
        const code = closeCode(event);
        if (code === FORBIDDEN) reportKeyRefused();
        else if (code !== NORMAL_CLOSURE) checkConnection();
      },
    },
  });
  return client;
}

function closeCode(event: unknown): number | null {
  return typeof event === "object" && event !== null && "code" in event ? Number((event as { code: unknown }).code) : null;
}

export interface SubscriptionHandlers<TData> {
  next(data: TData): void;
  error(error: ApiError): void;
  complete(): void;
}

/** Subscribes; returns the unsubscribe function. */
export function subscribe<TData, TVariables extends Record<string, unknown>>(
  document: TypedDocumentString<TData, TVariables>,
  variables: TVariables,
  handlers: SubscriptionHandlers<TData>,
): () => void {
  return connection().subscribe<TData>(
    { query: document.toString(), variables },
    {
      next: (result) => {
        if (result.errors?.length) {
          const first = result.errors[0] as { message: string; extensions?: { code?: string } };
          handlers.error(new ApiError(first.message, first.extensions?.code ?? null, 200));
        } else if (result.data) {
          handlers.next(result.data);
        }
      },
      error: (error) => {
        const code = closeCode(error);
        handlers.error(
          code === FORBIDDEN
            ? new ApiError("The live stream was refused: the API key is missing or wrong.", "UNAUTHENTICATED", 401)
            : new ApiError("The live stream was interrupted.", "NETWORK", 0),
        );
      },
      complete: handlers.complete,
    },
  );
}
