import type { TypedDocumentString } from "../generated/graphql.js";
import { MOUNT_PREFIX } from "../lib/mount-prefix.js";
import { currentApiKey, reportKeyRefused } from "./api-key.js";
import { reportReachable, reportUnreachable } from "./connection.js";

export const GRAPHQL_PATH = `${MOUNT_PREFIX}/graphql`;

/** A failed operation: the server's message(s) and the first error's extensions.code. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface GraphqlResponse<TData> {
  data?: TData | null;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: { code?: string } }>;
}

/**
 * The credential as a bearer token: the server takes an API key there as well as a custom-auth
 * token (a JWT from the deployment's login), so one header serves both kinds of deployment.
 */
export function authHeaders(): Record<string, string> {
  const key = currentApiKey();
  return key ? { authorization: `Bearer ${key}` } : {};
}

/**
 * Runs one query or mutation over HTTP POST /graphql. A 401 asks the user for a key (the key
 * prompt opens) and fails the operation; GraphQL errors become an ApiError with their code.
 */
export async function execute<TData, TVariables>(
  document: TypedDocumentString<TData, TVariables>,
  variables: TVariables,
  signal?: AbortSignal,
): Promise<TData> {
  let response: Response;
  try {
    response = await fetch(GRAPHQL_PATH, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json",
        ...authHeaders(),
      },
      body: JSON.stringify({ query: document.toString(), variables }),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    reportUnreachable();
    throw new ApiError("The server cannot be reached. Is Hangar running?", "NETWORK", 0);
  }
  reportReachable();
  if (response.status === 401) {
    reportKeyRefused();
    throw new ApiError("This server needs an API key.", "UNAUTHENTICATED", 401);
  }
  let body: GraphqlResponse<TData>;
  try {
    body = (await response.json()) as GraphqlResponse<TData>;
  } catch {
    throw new ApiError(`The server answered ${response.status} without a GraphQL result.`, null, response.status);
  }
  if (body.errors?.length) {
    const message = body.errors.map((error) => error.message).join(" · ");
    throw new ApiError(message, body.errors[0].extensions?.code ?? null, response.status);
  }
  if (body.data == null) throw new ApiError("The server returned no data.", null, response.status);
  return body.data;
}
